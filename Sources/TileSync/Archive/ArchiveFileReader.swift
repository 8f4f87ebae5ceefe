#if canImport(CTileSyncArchive)
import CTileSyncArchive
import Foundation

/// Reads a tar archive entry by entry with libarchive (plain, gzip, bzip2, xz, zstd, ...:
/// the compression is detected from the bytes). Owns the `struct archive*` and frees it.
final class ArchiveFileReader {
    let path: String
    private let archive: OpaquePointer
    private var currentPath: String?

    /// Opens an archive for reading (`archive_read_open_filename`).
    /// - Throws: `ArchiveError` when the file cannot be opened or is not a tar archive.
    init(path: String) throws(ArchiveError) {
        self.path = path
        guard let archive = archive_read_new() else {
            throw ArchiveError(path: path, entry: nil, message: "libarchive could not allocate a reader")
        }
        self.archive = archive
        archive_read_support_filter_all(archive)
        archive_read_support_format_tar(archive)
        let result = archive_read_open_filename(archive, path, 256 * 1024)
        guard result == ARCHIVE_OK else { throw error() }
    }

    deinit {
        archive_read_free(archive)
    }

    /// Reads the next header, or nil at the end of the archive.
    /// - Throws: `ArchiveError` for a damaged or truncated archive.
    func nextEntry() throws(ArchiveError) -> ArchiveEntryHeader? {
        var entry: OpaquePointer?
        currentPath = nil
        let result = archive_read_next_header(archive, &entry)
        if result == ARCHIVE_EOF { return nil }
        guard result == ARCHIVE_OK || result == ARCHIVE_WARN, let entry else { throw error() }
        let path = Self.string(archive_entry_pathname_utf8(entry)) ?? Self.string(archive_entry_pathname(entry)) ?? ""
        currentPath = path
        let kind: ArchiveEntryHeader.Kind
        if let target = Self.string(archive_entry_hardlink_utf8(entry)) ?? Self.string(archive_entry_hardlink(entry)) {
            kind = .hardLink(target: target)
        } else {
            switch UInt32(archive_entry_filetype(entry)) {
            case ctilesync_ae_ifreg: kind = .regularFile
            case ctilesync_ae_ifdir: kind = .directory
            case ctilesync_ae_iflnk:
                kind = .symbolicLink(target: Self.string(archive_entry_symlink_utf8(entry))
                    ?? Self.string(archive_entry_symlink(entry)) ?? "")
            default: kind = .other
            }
        }
        let size = archive_entry_size_is_set(entry) != 0 ? Int64(archive_entry_size(entry)) : nil
        return ArchiveEntryHeader(path: path, kind: kind, size: size, modificationTime: Int(archive_entry_mtime(entry)))
    }

    /// Reads the current entry's data, at most `limit` bytes.
    /// - Throws: `ArchiveError` when the data is damaged or longer than `limit`.
    func readData(expectedSize: Int64?, limit: Int) throws(ArchiveError) -> Data {
        if let expectedSize, expectedSize > Int64(limit) {
            throw ArchiveError(path: path, entry: currentPath, message: "entry is \(expectedSize) bytes, over the \(limit)-byte limit for a tile")
        }
        var data = Data(count: Int(expectedSize ?? 0))
        var filled = 0
        while true {
            if filled == data.count {
                var probe: UInt8 = 0
                let count = archive_read_data(archive, &probe, 1)
                if count < 0 { throw error() }
                if count == 0 { break }
                guard data.count < limit else {
                    throw ArchiveError(path: path, entry: currentPath, message: "entry is over the \(limit)-byte limit for a tile")
                }
                data.count = min(limit, max(64 * 1024, data.count * 2))
                data[filled] = probe
                filled += 1
                continue
            }
            let count = data.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return archive_read_data(archive, base + filled, buffer.count - filled)
            }
            if count < 0 { throw error() }
            if count == 0 { break }
            filled += count
        }
        if filled < data.count { data = Data(data.prefix(filled)) }
        return data
    }

    /// Skips the current entry's data without decoding it where the format allows.
    func skipData() throws(ArchiveError) {
        guard archive_read_data_skip(archive) == ARCHIVE_OK else { throw error() }
    }

    private func error() -> ArchiveError {
        let message = Self.string(archive_error_string(archive)) ?? "unreadable archive"
        return ArchiveError(path: path, entry: currentPath, message: message)
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
#endif
