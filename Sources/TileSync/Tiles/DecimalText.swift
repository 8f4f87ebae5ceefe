/// Strict parsing of unsigned decimal numbers in paths and user input: ASCII digits only,
/// at most 10 of them, so hostile input never overflows.
enum DecimalText {
    static let maxDigits = 10

    static func integer(_ text: some StringProtocol) -> Int? {
        integer(utf8: text.utf8)
    }

    static func integer(utf8: some Collection<UInt8>) -> Int? {
        guard !utf8.isEmpty, utf8.count <= maxDigits else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }
}
