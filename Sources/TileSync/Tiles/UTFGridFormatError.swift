extension UTFGrid {
    /// A UTFGrid document or row that is not a grid object.
    public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
        /// What is wrong.
        public let reason: String

        public var description: String { reason }
    }
}
