/// Reads protocol buffers wire format (varints, fixed 32/64-bit, length-delimited fields) from a
/// byte buffer, checking every length against the bytes that remain. Knows nothing of schemas.
struct ProtobufReader {
    /// The wire types of protocol buffers (3 and 4, groups, are refused).
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var position: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) {
        self.bytes = bytes
        position = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    var isAtEnd: Bool { position >= end }

    /// A varint of up to 10 bytes.
    /// - Throws: `ProtobufError` when it runs past the end or past 10 bytes.
    @inline(__always)
    mutating func varint() throws(ProtobufError) -> UInt64 {
        if position < end {
            let byte = bytes[position]
            if byte < 0x80 {
                position += 1
                return UInt64(byte)
            }
        }
        return try longVarint()
    }

    private mutating func longVarint() throws(ProtobufError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw ProtobufError("a truncated varint", at: position) }
            let byte = bytes[position]
            position += 1
            if shift == 63, byte > 1 { throw ProtobufError("a varint longer than 64 bits", at: position - 1) }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// A field's number and wire type, nil at the end of the message.
    /// - Throws: `ProtobufError` for a field number 0 or a wire type that is not one of the four.
    @inline(__always)
    mutating func field() throws(ProtobufError) -> (number: UInt64, type: WireType)? {
        guard !isAtEnd else { return nil }
        let start = position
        let key = try varint()
        guard key >> 3 != 0 else { throw ProtobufError("a field number 0", at: start) }
        guard let type = WireType(rawValue: UInt8(key & 7)) else {
            throw ProtobufError("an unknown wire type \(key & 7) of field \(key >> 3)", at: start)
        }
        return (key >> 3, type)
    }

    /// The range of a length-delimited field's payload, which the reader then skips.
    @inline(__always)
    mutating func lengthDelimited() throws(ProtobufError) -> Range<Int> {
        let start = position
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw ProtobufError("a length of \(length) bytes past the end (\(end - position) left)", at: start)
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    mutating func fixed32() throws(ProtobufError) -> UInt32 { try littleEndian(UInt32.self, "32-bit") }

    mutating func fixed64() throws(ProtobufError) -> UInt64 { try littleEndian(UInt64.self, "64-bit") }

    private mutating func littleEndian<Value: FixedWidthInteger>(_ type: Value.Type, _ name: String) throws(ProtobufError) -> Value {
        let size = Value.bitWidth / 8
        guard end - position >= size else { throw ProtobufError("a truncated \(name) value", at: position) }
        var value: Value = 0
        for index in 0..<size { value |= Value(bytes[position + index]) << (8 * index) }
        position += size
        return value
    }

    /// Skips a field of `type` (unknown fields are allowed by protocol buffers).
    @inline(__always)
    mutating func skip(_ type: WireType) throws(ProtobufError) {
        switch type {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed32: _ = try fixed32()
        }
    }

    /// The UTF-8 text of a range; invalid sequences are an error (`checkUTF8`).
    func string(_ range: Range<Int>) throws(ProtobufError) -> String {
        try checkUTF8(range)
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Checks that a range is UTF-8 text without making a `String`: ASCII, the usual case, a byte
    /// at a time; the rest by the standard library's validation (not specialized: it looks up
    /// generic metadata at each call, too slow for every name and key of every tile).
    func checkUTF8(_ range: Range<Int>) throws(ProtobufError) {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
        guard slice.contains(where: { $0 >= 0x80 }) else { return }
        guard String(validating: slice, as: UTF8.self) != nil else {
            throw ProtobufError("a string that is not UTF-8", at: range.lowerBound)
        }
    }
}
