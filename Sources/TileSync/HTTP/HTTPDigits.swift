/// Numbers in HTTP fields (`1*DIGIT`, RFC 9110 §5.6.1): ASCII digits only, no sign, no space.
enum HTTPDigits {
    /// True when `text` is one or more ASCII digits.
    static func areDigits(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// The value of `text`, nil when it is not `1*DIGIT` or does not fit 64 bits.
    static func value(_ text: some StringProtocol) -> UInt64? {
        areDigits(text) ? UInt64(text) : nil
    }
}
