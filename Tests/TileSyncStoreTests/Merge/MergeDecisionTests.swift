import Foundation
import Testing
@testable import TileSync

@Suite("A coordinate several sources hold: who wins, and which holders' bytes are read")
struct MergeDecisionTests {
    static let coordinate = TileCoordinate(unchecked: 3, 2, 1)
    static let locations = (0..<3).map { TileStoreLocation(kind: .mbtiles, address: "s\($0).mbtiles") }

    /// Holders of the given bytes in source order (with the listed hashes when `hashes`, the
    /// listed sizes of those `listed` says, all by default), and the indexes of those read by the
    /// decision.
    static func decide(_ policy: MergedStoreKind.DuplicatePolicy, _ blobs: [Data], hashes: Bool = false, listed: [Bool]? = nil,
                       comparing: Bool = false) throws -> (holder: Int, origin: MergeOrigin, read: [Int]) {
        let holders = blobs.enumerated().map { index, data in
            MergeHolder(input: index, entry: TileIndexEntry(coordinate: coordinate, size: data.count, hash: hashes ? ContentHash(of: data) : nil),
                        origin: MergeOrigin(source: index, listedSize: listed?[index] == false ? nil : data.count))
        }
        var read: [Int] = []
        let decision = MergeDecision(policy: policy, locations: locations, comparesBytes: comparing)
        let decided = try decision.decide(coordinate, holders: holders) { index in
            read.append(index)
            return blobs[index]
        }
        #expect(decided.data == blobs[decided.holder])
        return (decided.holder, decided.origin, read)
    }

    @Test("ignore and override read only the winner: the same size is decided unread, other sizes are different for free")
    func losersUnread() throws {
        let same = [Data("aaaa".utf8), Data("bbbb".utf8), Data("aaaa".utf8)]
        let ignored = try Self.decide(.ignore, same)
        #expect(ignored.holder == 0 && ignored.read == [0] && ignored.origin == MergeOrigin(source: 0, holding: .uncompared, listedSize: 4))
        let overridden = try Self.decide(.override, same)
        #expect(overridden.holder == 2 && overridden.read == [2] && overridden.origin == MergeOrigin(source: 2, holding: .uncompared, listedSize: 4))
        let sized = [Data("aaaa".utf8), Data("bbbbb".utf8)]
        let different = try Self.decide(.override, sized)
        #expect(different.holder == 1 && different.read == [1] && different.origin == MergeOrigin(source: 1, holding: .decided))
        #expect(try Self.decide(.ignore, sized).read == [0])
    }

    @Test("Sizes a source does not list (it reads tiles only when asked) tell nothing; two listed sizes that differ still do")
    func unlistedSizes() throws {
        let blobs = [Data("aaaa".utf8), Data("bbbbb".utf8), Data("ccccc".utf8)]
        let unlisted = try Self.decide(.ignore, blobs, listed: [false, false, false])
        #expect(unlisted.holder == 0 && unlisted.read == [0] && unlisted.origin == MergeOrigin(source: 0, holding: .uncompared))
        let oneListed = try Self.decide(.override, blobs, listed: [true, false, false])
        #expect(oneListed.holder == 2 && oneListed.read == [2] && oneListed.origin == MergeOrigin(source: 2, holding: .uncompared, listedSize: 4),
                "the one listed size goes on with the origin, for the merge of a group's run")
        let twoListed = try Self.decide(.ignore, blobs, listed: [true, false, true])
        #expect(twoListed.holder == 0 && twoListed.read == [0] && twoListed.origin == MergeOrigin(source: 0, holding: .decided))
        let compared = try Self.decide(.ignore, [Data("aaaa".utf8), Data("aaaa".utf8)], listed: [false, false], comparing: true)
        #expect(Set(compared.read) == [0, 1] && compared.origin == MergeOrigin(source: 0, holding: .alike, lastSource: 1))
    }

    @Test("Listed hashes tell equal from different without reading; asked to compare, the same sizes are read")
    func freeAndAskedComparisons() throws {
        let alike = [Data("aaaa".utf8), Data("aaaa".utf8)]
        let hashed = try Self.decide(.override, alike, hashes: true)
        #expect(hashed.holder == 0 && hashed.read == [0] && hashed.origin == MergeOrigin(source: 0, holding: .alike, lastSource: 1, listedSize: 4))
        let differing = try Self.decide(.ignore, [Data("aaaa".utf8), Data("bbbb".utf8)], hashes: true)
        #expect(differing.read == [0] && differing.origin == MergeOrigin(source: 0, holding: .decided, listedSize: 4))
        let compared = try Self.decide(.override, alike, comparing: true)
        #expect(compared.holder == 0 && Set(compared.read) == [0, 1] && compared.origin.holding == .alike)
        let comparedDifferent = try Self.decide(.override, [Data("aaaa".utf8), Data("bbbb".utf8)], comparing: true)
        #expect(comparedDifferent.holder == 1 && comparedDifferent.origin == MergeOrigin(source: 1, holding: .decided, listedSize: 4))
    }

    @Test("abort compares every holder whatever it is asked: equal bytes pass, different ones stop")
    func abortIsExact() throws {
        let alike = try Self.decide(.abort, [Data("aaaa".utf8), Data("aaaa".utf8), Data("aaaa".utf8)])
        #expect(Set(alike.read) == [0, 1, 2] && alike.origin == MergeOrigin(source: 0, holding: .alike, lastSource: 2, listedSize: 4))
        #expect(throws: TileStoreError.self) { try Self.decide(.abort, [Data("aaaa".utf8), Data("aaab".utf8)]) }
    }
}
