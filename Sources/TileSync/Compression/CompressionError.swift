/// A compressed stream that cannot be decoded or encoded: damaged, truncated, larger than the
/// caller allows, or of a method this build cannot read.
public struct CompressionError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in words.
    public let message: String

    init(message: String) {
        self.message = message
    }

    public var description: String { message }

    static func tooLarge(_ limit: Int) -> CompressionError {
        CompressionError(message: "decompresses to more than \(limit) bytes, TileSync's limit (a decompression bomb?)")
    }
}
