import Foundation
import Testing
@testable import TileSync

@Suite("Content hashes (MD5)")
struct ContentHashTests {
    @Test("RFC 1321 test vectors, uppercase hex")
    func vectors() {
        #expect(ContentHash(of: Data()).hex == "D41D8CD98F00B204E9800998ECF8427E")
        #expect(ContentHash(of: Data("abc".utf8)).hex == "900150983CD24FB0D6963F7D28E17F72")
        #expect(ContentHash(of: Data("message digest".utf8)).hex == "F96B697D7CB7938D525A2F31AAF161D0")
        #expect(ContentHash.ofEmpty.hex == "D41D8CD98F00B204E9800998ECF8427E")
    }

    @Test("Parses hex in either case, refuses anything else")
    func parsing() {
        #expect(ContentHash(hex: "900150983cd24fb0d6963f7d28e17f72") == ContentHash(of: Data("abc".utf8)))
        #expect(ContentHash(hex: "900150983CD24FB0D6963F7D28E17F72")?.bytes.first == 0x90)
        for bad in ["", "900150983CD24FB0D6963F7D28E17F7", "900150983CD24FB0D6963F7D28E17F7G", "b0a559d767b45de037d4aefe483d3a274dff23e8"] {
            #expect(ContentHash(hex: bad) == nil, "\(bad)")
        }
    }

    @Test("Incremental hashing equals one-shot hashing over large input")
    func incremental() throws {
        let data = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let hasher = MD5Hasher()
        hasher.update(data.prefix(333_333))
        hasher.update(data.dropFirst(333_333))
        #expect(try hasher.finalize() == ContentHash(of: data))
    }

    @Test("The aggregate hash of no tiles is the MD5 of nothing; order breaks are detected")
    func aggregate() throws {
        #expect(try AggregateTileHash().finalize() == .ofEmpty)
        let aggregate = AggregateTileHash()
        #expect(aggregate.add(try TileCoordinate(z: 1, x: 0, tmsY: 0), data: Data([1])))
        #expect(aggregate.add(try TileCoordinate(z: 1, x: 0, tmsY: 1), data: Data([2])))
        #expect(!aggregate.add(try TileCoordinate(z: 0, x: 0, y: 0), data: Data([3])))
        let expected = MD5Hasher()
        expected.update("100")
        expected.update(Data([1]))
        expected.update("101")
        expected.update(Data([2]))
        expected.update("000")
        expected.update(Data([3]))
        #expect(try aggregate.finalize() == expected.finalize())
    }
}
