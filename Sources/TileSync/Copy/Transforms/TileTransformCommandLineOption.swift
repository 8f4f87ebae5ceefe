extension TileTransformSettings {
    /// A transform's option as the command line offers it (`--compress`, `--layer`, ...), declared
    /// by the transform (`TileTransforms.commandLineOptions`): the tool builds the help and the
    /// parsing of `convert` and `sync` from these, so a new transform needs no change there.
    public struct CommandLineOption: Sendable {
        /// The option's name without dashes.
        public let name: String
        /// Shown as `<placeholder>`; nil for a flag.
        public let placeholder: String?
        /// One or a few lines of help.
        public let help: String
        /// May be given several times; the values reach the transform joined with newlines.
        public let isRepeatable: Bool

        init(name: String, placeholder: String?, help: String, isRepeatable: Bool = false) {
            self.name = name
            self.placeholder = placeholder
            self.help = help
            self.isRepeatable = isRepeatable
        }
    }

    /// Command-line values a transform refuses: the message says what they must be.
    public struct ValueError: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }

        init(_ message: String) {
            self.message = message
        }
    }
}
