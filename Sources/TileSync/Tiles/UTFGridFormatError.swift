/// A UTFGrid document or row that is not a grid object.
public struct UTFGridFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let reason: String

    public var description: String { reason }
}
