#if canImport(CTileSyncArchive)
/// A libarchive failure, with the archive's path, the entry being read or written, and
/// libarchive's message.
struct ArchiveError: Error, Sendable, CustomStringConvertible {
    /// The archive file.
    let path: String
    /// The entry being read or written, when there was one.
    let entry: String?
    /// libarchive's message.
    let message: String
    /// The system error number behind it (`archive_errno`), 0 when none.
    var code: Int32 = 0

    var description: String {
        entry.map { "\(message) (entry '\($0)')" } ?? message
    }
}
#endif
