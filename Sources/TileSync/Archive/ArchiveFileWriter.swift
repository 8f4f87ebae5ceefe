#if canImport(CTileSyncArchive)
import CTileSyncArchive
import Foundation

/// Writes a tar archive (POSIX pax, which stays plain ustar for short names) with libarchive,
/// optionally compressed. Owns the `struct archive*` and frees it.
final class ArchiveFileWriter: TarEntryWriting {
    let path: String
    private let archive: OpaquePointer
    private let entry: OpaquePointer
    private var isClosed = false

    /// Creates (truncates) `path` and starts an archive there.
    /// - Throws: `ArchiveError` when the file cannot be created or the filter is unavailable.
    init(path: String, compression: TarCompression) throws(ArchiveError) {
        self.path = path
        guard let archive = archive_write_new(), let entry = archive_entry_new() else {
            throw ArchiveError(path: path, entry: nil, message: "libarchive could not allocate a writer")
        }
        self.archive = archive
        self.entry = entry
        archive_write_set_format_pax_restricted(archive)
        switch compression {
        case .none: archive_write_add_filter_none(archive)
        case .gzip: archive_write_add_filter_gzip(archive)
        case .zstd:
            guard archive_write_add_filter_zstd(archive) == ARCHIVE_OK else { throw error(entry: nil) }
        }
        guard archive_write_open_filename(archive, path) == ARCHIVE_OK else { throw error(entry: nil) }
    }

    deinit {
        if !isClosed { archive_write_close(archive) }
        archive_entry_free(entry)
        archive_write_free(archive)
    }

    /// Appends a regular file entry with mode 0644.
    /// - Throws: `ArchiveError` when writing fails (disk full, I/O error).
    func writeFile(path entryPath: String, data: Data, modificationTime: Int) throws(ArchiveError) {
        archive_entry_clear(entry)
        archive_entry_set_pathname_utf8(entry, entryPath)
        archive_entry_set_filetype(entry, ctilesync_ae_ifreg)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_size(entry, la_int64_t(data.count))
        archive_entry_set_mtime(entry, time_t(modificationTime), 0)
        guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw error(entry: entryPath) }
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return archive_write_data(archive, base, buffer.count)
        }
        guard written == data.count else { throw error(entry: entryPath) }
    }

    /// Appends a hard-link entry: `entryPath` has the same content as the earlier entry `target`
    /// (no data is stored; `tar -x` creates a hard link).
    /// - Throws: `ArchiveError` when writing fails.
    func writeHardLink(path entryPath: String, target: String, modificationTime: Int) throws(ArchiveError) {
        archive_entry_clear(entry)
        archive_entry_set_pathname_utf8(entry, entryPath)
        archive_entry_set_hardlink_utf8(entry, target)
        archive_entry_set_filetype(entry, ctilesync_ae_ifreg)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_size(entry, 0)
        archive_entry_set_mtime(entry, time_t(modificationTime), 0)
        guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw error(entry: entryPath) }
    }

    /// `writeFile(path:data:modificationTime:)` for a UTF-8 path.
    /// - Throws: `ArchiveError` when writing fails.
    func writeFile(path entryPath: [UInt8], data: Data, modificationTime: Int) throws(ArchiveError) {
        try writeFile(path: String(decoding: entryPath, as: UTF8.self), data: data, modificationTime: modificationTime)
    }

    /// `writeHardLink(path:target:modificationTime:)` for UTF-8 paths.
    /// - Throws: `ArchiveError` when writing fails.
    func writeHardLink(path entryPath: [UInt8], target: [UInt8], modificationTime: Int) throws(ArchiveError) {
        try writeHardLink(path: String(decoding: entryPath, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
                          modificationTime: modificationTime)
    }

    /// Writes the end-of-archive blocks and flushes (`archive_write_close`).
    /// - Throws: `ArchiveError` when the final write fails.
    func close() throws(ArchiveError) {
        isClosed = true
        guard archive_write_close(archive) == ARCHIVE_OK else { throw error(entry: nil) }
    }

    private func error(entry entryPath: String?) -> ArchiveError {
        let code = archive_errno(archive)
        var message = archive_error_string(archive).map { String(cString: $0) } ?? "archive write failed"
        if code > 0, !message.contains(String(cString: strerror(code))) { message += ": " + String(cString: strerror(code)) }
        return ArchiveError(path: path, entry: entryPath, message: message, code: code)
    }
}
#endif
