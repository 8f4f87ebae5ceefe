#if canImport(CTileSyncArchive)
import Foundation

/// Appends entries to a tar archive being written: the common face of the native writer for
/// plain `.tar` files and libarchive's for compressed ones.
protocol TarEntryWriting: AnyObject {
    /// The archive file being written.
    var path: String { get }
    /// Appends a regular file entry with mode 0644; `entryPath` is the UTF-8 path.
    /// - Throws: `ArchiveError` when writing fails (disk full, I/O error).
    func writeFile(path entryPath: [UInt8], data: Data, modificationTime: Int) throws(ArchiveError)
    /// Appends a hard-link entry: `entryPath` has the content of the earlier entry `target`
    /// (both UTF-8 paths).
    /// - Throws: `ArchiveError` when writing fails.
    func writeHardLink(path entryPath: [UInt8], target: [UInt8], modificationTime: Int) throws(ArchiveError)
    /// Writes the end-of-archive blocks and flushes.
    /// - Throws: `ArchiveError` when the final write fails.
    func close() throws(ArchiveError)
}

extension TarEntryWriting {
    /// Appends a regular file entry with mode 0644.
    /// - Throws: `ArchiveError` when writing fails (disk full, I/O error).
    func writeFile(path entryPath: String, data: Data, modificationTime: Int) throws(ArchiveError) {
        try writeFile(path: Array(entryPath.utf8), data: data, modificationTime: modificationTime)
    }

    /// Appends a hard-link entry: `entryPath` has the content of the earlier entry `target`.
    /// - Throws: `ArchiveError` when writing fails.
    func writeHardLink(path entryPath: String, target: String, modificationTime: Int) throws(ArchiveError) {
        try writeHardLink(path: Array(entryPath.utf8), target: Array(target.utf8), modificationTime: modificationTime)
    }
}

/// Opens the writer for an archive: the native streaming writer, compressing on every core for
/// `.tar.gz` and `.tar.zst` (libarchive's single-threaded filter only for zstd without libzstd).
/// - Throws: `ArchiveError` when the file cannot be created or the filter is unavailable.
func makeTarEntryWriter(path: String, compression: TarCompression) throws(ArchiveError) -> any TarEntryWriting {
    switch compression {
    case .none: return try PlainTarFileWriter(path: path)
    case .gzip: return try PlainTarFileWriter(path: path, compression: .gzip)
    case .zstd:
        #if canImport(CTileSyncZstd)
        return try PlainTarFileWriter(path: path, compression: .zstd)
        #else
        return try ArchiveFileWriter(path: path, compression: compression)
        #endif
    }
}
#endif
