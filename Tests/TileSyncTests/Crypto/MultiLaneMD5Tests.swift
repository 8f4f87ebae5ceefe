import Foundation
import Testing
@testable import TileSync

@Suite("MD5 eight lanes at a time")
struct MultiLaneMD5Tests {
    /// Deterministic bytes of `count` for message `index`.
    static func message(_ count: Int, index: Int) -> Data {
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(count)
        return Data((0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        })
    }

    @Test("RFC 1321 test suite")
    func knownDigests() {
        let cases: [(String, String)] = [
            ("", "D41D8CD98F00B204E9800998ECF8427E"),
            ("a", "0CC175B9C0F1B6A831C399E269772661"),
            ("abc", "900150983CD24FB0D6963F7D28E17F72"),
            ("message digest", "F96B697D7CB7938D525A2F31AAF161D0"),
            ("abcdefghijklmnopqrstuvwxyz", "C3FCD3D76192E4007DFB496CCA67E13B"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "D174AB98D277D9F5A5611C2C9F419D9F"),
            (String(repeating: "1234567890", count: 8), "57EDF4A22BE3C955AC49DA2E2107B67A"),
        ]
        var hasher = MultiLaneMD5()
        defer { hasher.deallocate() }
        let digests = hasher.digests(of: cases.map { Data($0.0.utf8) })
        #expect(digests.map(\.hex) == cases.map(\.1))
    }

    @Test("Every length around the padding boundaries and lanes that end at different blocks agree with libcrypto")
    func agreesWithLibcrypto() {
        var hasher = MultiLaneMD5()
        defer { hasher.deallocate() }
        // Lengths 0...300 (every padding case), then sizes of real tiles, in one batch and in
        // batches of every size up to 20 (lanes idle, refilled, or never used).
        let messages = (0...300).map { Self.message($0, index: $0) }
            + [4_095, 4_096, 4_097, 65_536, 100_003].enumerated().map { Self.message($1, index: 1_000 + $0) }
        #expect(hasher.digests(of: messages) == messages.map { ContentHash(of: $0) })
        for size in 1...20 {
            let batch = Array(messages.suffix(size + 3).prefix(size))
            #expect(hasher.digests(of: batch) == batch.map { ContentHash(of: $0) }, "batch of \(size)")
        }
        #expect(hasher.digests(of: []).isEmpty)
    }

    @Test("Messages that share storage (slices of one Data) hash as themselves")
    func slices() {
        var hasher = MultiLaneMD5()
        defer { hasher.deallocate() }
        let whole = Self.message(10_000, index: 7)
        let parts = stride(from: 0, to: 10_000, by: 997).map { whole[$0..<min($0 + 1_500, 10_000)] }
        #expect(hasher.digests(of: parts) == parts.map { ContentHash(of: $0) })
    }
}
