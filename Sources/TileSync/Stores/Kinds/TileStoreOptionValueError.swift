extension TileStoreOptions {
    /// A command-line value a store option cannot take; the message says what it must be
    /// (`must be flat, flat-with-hash or normalized, not 'round'`).
    public struct ValueError: Error, Sendable, Equatable {
        /// What is wrong, without the option's name.
        public let message: String

        /// An error with this message.
        public init(_ message: String) {
            self.message = message
        }
    }
}
