/// A libarchive failure, with the archive's path, the entry being read or written, and
/// libarchive's message.
public struct ArchiveError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let entry: String?
    public let message: String

    public var description: String {
        entry.map { "\(message) (entry '\($0)')" } ?? message
    }
}
