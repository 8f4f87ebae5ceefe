/// A `metadata.json` document that could not be read.
public struct MetadataJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let reason: String
    /// Byte offset of the problem in the document.
    public let offset: Int

    public var description: String { "\(reason) at byte \(offset)" }
}
