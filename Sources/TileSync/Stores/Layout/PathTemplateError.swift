extension PathTemplate {
    /// A path template that cannot be used.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The template as given.
        public let template: String
        /// What is wrong with it.
        public let reason: String

        public var description: String { "layout '\(template)' \(reason)" }
    }
}
