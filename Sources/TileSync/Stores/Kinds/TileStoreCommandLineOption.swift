extension TileStoreOptions {
    /// A store option as the command line offers it, declared by the kinds that read it
    /// (`TileStoreKind.commandLineOptions`): its name, value, help line, the uses of a store it is
    /// offered for, which stores of a command receive it, and how its text becomes a
    /// `TileStoreOptions` value. The tool builds its help and parsing from the registry's
    /// declarations, so a new kind's options need no change to any command.
    public struct CommandLineOption: Sendable {
        /// Which stores of a command get the value.
        public enum Recipients: Sendable {
            /// Every store of the command whose kind reads it; refused when none does.
            case storesReadingIt
            /// The store the command writes; refused when its kind does not read it.
            case storeWritten
        }

        /// The option's name without dashes (also its `TileStoreOptions.Key` name).
        public let name: String
        /// Shown as `<placeholder>`; nil for a flag.
        public let placeholder: String?
        /// One or two lines of help.
        public let help: String
        /// The uses of a store the option is offered for (`.create` for `convert`'s destination).
        public let uses: Set<TileStoreLocation.Use>
        /// Which stores of a command receive it.
        public let recipients: Recipients
        /// May be given several times; `set` then gets the values joined with newlines.
        public let isRepeatable: Bool
        private let setValue: @Sendable (String, inout TileStoreOptions) throws(TileStoreOptions.ValueError) -> Void

        /// - Parameter set: stores the text (empty for a flag) in the options, or throws what the
        ///   value must be.
        public init(name: String, placeholder: String?, help: String, uses: Set<TileStoreLocation.Use>, recipients: Recipients,
                    isRepeatable: Bool = false, set: @escaping @Sendable (String, inout TileStoreOptions) throws(TileStoreOptions.ValueError) -> Void) {
            self.name = name
            self.placeholder = placeholder
            self.help = help
            self.uses = uses
            self.recipients = recipients
            self.isRepeatable = isRepeatable
            setValue = set
        }

        /// Stores `text` (empty for a flag) in `options`.
        /// - Throws: `TileStoreOptions.ValueError` saying what the value must be.
        public func set(_ text: String, in options: inout TileStoreOptions) throws(TileStoreOptions.ValueError) {
            try setValue(text, &options)
        }
    }
}
