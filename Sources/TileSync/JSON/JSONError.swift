/// A JSON document that could not be read: what is wrong, where (the byte offset from the
/// start of the document) and, when the caller named it, which document.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong (`expected a value`, `an unterminated string`).
    public let reason: String
    /// The byte offset of the problem from the start of the document.
    public let offset: Int
    /// The file or object the document came from, when the caller named it.
    public let source: String?

    public init(reason: String, offset: Int, source: String? = nil) {
        self.reason = reason
        self.offset = offset
        self.source = source
    }

    /// `reason at byte N`, after `SOURCE: ` when the source is known.
    public var description: String {
        (source.map { $0 + ": " } ?? "") + "\(reason) at byte \(offset)"
    }
}
