extension TileShard {
    /// A `--shard` value that is not `I/N` with `0 <= I < N`.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was given.
        public let text: String
        /// Why it is refused.
        public let reason: String

        public var description: String { "'\(text)' is not a shard: \(reason)" }
    }
}
