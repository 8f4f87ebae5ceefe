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

        /// `value` as a whole number in `range`.
        /// - Throws: `ValueError` saying the range when it is not one.
        static func wholeNumber(_ value: String, in range: ClosedRange<Int>) throws(ValueError) -> Int {
            guard let number = Int(value), range.contains(number) else {
                throw ValueError("must be a whole number in \(range.lowerBound)...\(range.upperBound), not '\(value)'")
            }
            return number
        }
    }
}
