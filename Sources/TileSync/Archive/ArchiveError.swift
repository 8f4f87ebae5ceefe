#if canImport(CTileSyncArchive)
/// A libarchive failure, with the archive's path, the entry being read or written, and
/// libarchive's message.
public struct ArchiveError: Error, Sendable, CustomStringConvertible {
    /// The archive file.
    public let path: String
    /// The entry being read or written, when there was one.
    public let entry: String?
    /// libarchive's message.
    public let message: String
    /// The system error number behind it (`archive_errno`), 0 when none.
    public var code: Int32 = 0

    public var description: String {
        entry.map { "\(message) (entry '\($0)')" } ?? message
    }
}
#endif
