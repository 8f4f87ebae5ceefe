import Foundation

/// Writes protocol buffers wire format into a growing byte array.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func key(_ number: UInt64, _ type: ProtobufReader.WireType) {
        varint(number << 3 | UInt64(type.rawValue))
    }

    mutating func varintField(_ number: UInt64, _ value: UInt64) {
        key(number, .varint)
        varint(value)
    }

    mutating func bytesField(_ number: UInt64, _ payload: some Collection<UInt8>) {
        key(number, .lengthDelimited)
        varint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    mutating func stringField(_ number: UInt64, _ text: String) {
        bytesField(number, Array(text.utf8))
    }

    mutating func packedField(_ number: UInt64, _ values: [UInt32]) {
        guard !values.isEmpty else { return }
        var inner = ProtobufWriter()
        for value in values { inner.varint(UInt64(value)) }
        bytesField(number, inner.bytes)
    }

    mutating func fixed32Field(_ number: UInt64, _ value: UInt32) {
        key(number, .fixed32)
        for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    mutating func fixed64Field(_ number: UInt64, _ value: UInt64) {
        key(number, .fixed64)
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    mutating func append(_ raw: some Collection<UInt8>) {
        bytes.append(contentsOf: raw)
    }
}
