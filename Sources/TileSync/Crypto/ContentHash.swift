public import Foundation

/// The 128-bit MD5 of a tile's stored bytes, written as 32 uppercase hex digits: the
/// `tile_hash`/`tile_id` convention of martin's `mbtiles` tool.
public struct ContentHash: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The first 8 digest bytes, big-endian.
    public let high: UInt64
    /// The last 8 digest bytes, big-endian.
    public let low: UInt64

    /// Hashes tile bytes.
    public init(of data: Data) {
        self = MD5Hasher.hash(data)
    }

    /// Parses 32 hex digits (either case); nil for anything else.
    public init?(hex: some StringProtocol) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 32 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for index in stride(from: 0, to: 32, by: 2) {
            guard let high = Self.nibble(utf8[index]), let low = Self.nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.init(bytes: bytes)
    }

    /// The two halves as signed integers, the form SQLite stores (INTEGER is signed 64-bit).
    var storedHalves: (high: Int, low: Int) { (Int(Int64(bitPattern: high)), Int(Int64(bitPattern: low))) }

    /// A hash from the two signed integers `storedHalves` gave.
    init(storedHigh: Int, storedLow: Int) {
        self.init(high: UInt64(bitPattern: Int64(storedHigh)), low: UInt64(bitPattern: Int64(storedLow)))
    }

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(bytes: [UInt8]) {
        var high: UInt64 = 0, low: UInt64 = 0
        for (index, byte) in bytes.prefix(16).enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.high = high
        self.low = low
    }

    /// The 16 digest bytes.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    }

    /// 32 uppercase hex digits.
    public var hex: String {
        String(unsafeUninitializedCapacity: 32) { out in
            writeHex(to: out, at: 0)
            return 32
        }
    }

    /// The 32 hex digits in double quotes: an HTTP entity tag (`ETag`), written in one go.
    public var quotedHex: String {
        String(unsafeUninitializedCapacity: 34) { out in
            writeQuotedHex(to: out)
            return 34
        }
    }

    /// Runs `body` with `quotedHex` as a NUL-terminated C string on the stack (valid only inside
    /// `body`): an entity tag handed to a C HTTP library without building a `String`.
    public func withQuotedHexCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 35) { out in
            writeQuotedHex(to: out)
            out[34] = 0
            return try out.withMemoryRebound(to: CChar.self) { try body(UnsafePointer($0.baseAddress!)) }
        }
    }

    /// `"`, the 32 digits, `"`: the first 34 bytes of `out`.
    private func writeQuotedHex(to out: UnsafeMutableBufferPointer<UInt8>) {
        out[0] = UInt8(ascii: "\"")
        writeHex(to: out, at: 1)
        out[33] = UInt8(ascii: "\"")
    }

    private func writeHex(to out: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        for index in 0..<32 {
            let half = index < 16 ? high : low
            let nibble = UInt8(truncatingIfNeeded: half >> (60 - 4 * UInt64(index & 15))) & 0x0F
            out[start + index] = nibble < 10 ? 0x30 + nibble : 0x37 + nibble
        }
    }

    public var description: String { hex }

    public static func < (lhs: ContentHash, rhs: ContentHash) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    /// A placeholder for writers that do not store hashes (flat MBTiles, folders and tars
    /// without dedup); never compared or written.
    static let unknown = ContentHash(high: 0, low: 0)

    /// MD5 of no bytes: `D41D8CD98F00B204E9800998ECF8427E`.
    public static let ofEmpty = ContentHash(of: Data())

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}
