import Foundation
import Testing
@testable import TileSync

@Suite("Sync, step by step: the decision at one coordinate from the two listings, the state and the bytes")
struct SyncDecisionTests {
    /// A source and a destination MBTiles holding `a` and `b` at 1/0/0, a context over them and a
    /// decision that hashes through a reader of the source.
    /// A decision over two stores, with the folder that holds them (kept while the decision is used).
    private struct Fixture {
        let directory: TemporaryDirectory
        let decision: SyncDecision

        func decide(_ pair: TileIndexPair) throws -> SyncDecision.Outcome {
            try withExtendedLifetime(directory) { try decision.decide(pair) }
        }

        var computedHashes: Int { decision.computedHashes }
    }

    private static func decision(_ a: String, _ b: String, options: TileSynchronizer.Options = TileSynchronizer.Options()) throws -> Fixture {
        let directory = try TemporaryDirectory()
        let tile = try TileCoordinate(z: 1, x: 0, y: 0)
        try GeneratedStore.write([Tile(coordinate: tile, data: Data(a.utf8))], to: directory.file("a.mbtiles"))
        try GeneratedStore.write([Tile(coordinate: tile, data: Data(b.utf8))], to: directory.file("b.mbtiles"))
        let source = try TileStoreLocation(parsing: directory.file("a.mbtiles"))
        let destination = try TileStoreLocation(parsing: directory.file("b.mbtiles"))
        let context = try SyncContext(source: source, destination: destination, options: options, sourceReader: try source.openReader())
        return Fixture(directory: directory, decision: SyncDecision(context: context, sourceLookup: { try source.openReader() }))
    }

    private static let coordinate = TileCoordinate(unchecked: 1, 0, 0)

    private static func entry(size: Int, hash: ContentHash? = nil, time: Int64? = nil) -> TileIndexEntry {
        TileIndexEntry(coordinate: coordinate, size: size, hash: hash, modificationTime: time)
    }

    @Test("One side only: add, keep, or delete with --delete; nothing is read")
    func oneSide() throws {
        let keeping = try Self.decision("one", "two")
        guard case .add = try keeping.decide(TileIndexPair(coordinate: Self.coordinate, source: Self.entry(size: 3), destination: nil)),
              case .keep = try keeping.decide(TileIndexPair(coordinate: Self.coordinate, source: nil, destination: Self.entry(size: 3))) else {
            Issue.record("add and keep expected")
            return
        }
        var options = TileSynchronizer.Options()
        options.delete = true
        let deleting = try Self.decision("one", "two", options: options)
        guard case .delete = try deleting.decide(TileIndexPair(coordinate: Self.coordinate, source: nil, destination: Self.entry(size: 3))) else {
            Issue.record("delete expected")
            return
        }
        #expect(keeping.computedHashes == 0 && deleting.computedHashes == 0)
    }

    @Test("Sizes differ: replaced unread; equal size and time: unchanged unread, unless --checksum, which reads both")
    func quickAndChecksum() throws {
        let decision = try Self.decision("one", "two")
        guard case .replace(_, nil) = try decision.decide(TileIndexPair(coordinate: Self.coordinate, source: Self.entry(size: 3),
                                                                           destination: Self.entry(size: 4))) else {
            Issue.record("replace expected")
            return
        }
        let same = TileIndexPair(coordinate: Self.coordinate, source: Self.entry(size: 3, time: 7), destination: Self.entry(size: 3, time: 7))
        guard case .unchanged = try decision.decide(same) else {
            Issue.record("unchanged expected")
            return
        }
        #expect(decision.computedHashes == 0)
        var options = TileSynchronizer.Options()
        options.checksum = true
        let checking = try Self.decision("one", "two", options: options)
        guard case .replace(_, let hash?) = try checking.decide(same) else {
            Issue.record("replace with the source's MD5 expected")
            return
        }
        #expect(hash == ContentHash(of: Data("one".utf8)))
        #expect(checking.computedHashes == 2)
    }

    @Test("Equal sizes without hashes: the bytes decide, each side read once; hashes in the listings are used as they are")
    func hashes() throws {
        let equal = try Self.decision("same", "same")
        let unknown = TileIndexPair(coordinate: Self.coordinate, source: Self.entry(size: 4), destination: Self.entry(size: 4))
        guard case .unchanged(_, _, let hash?) = try equal.decide(unknown) else {
            Issue.record("unchanged expected")
            return
        }
        #expect(hash == ContentHash(of: Data("same".utf8)) && equal.computedHashes == 2)
        let listed = try Self.decision("same", "same")
        let other = ContentHash(of: Data("else".utf8))
        let known = TileIndexPair(coordinate: Self.coordinate, source: Self.entry(size: 4, hash: other), destination: Self.entry(size: 4, hash: hash))
        guard case .replace(_, other?) = try listed.decide(known) else {
            Issue.record("replace by the listed hashes expected")
            return
        }
        #expect(listed.computedHashes == 0)
    }
}
