import Foundation
import Synchronization
import Testing
@testable import TileSync

@Suite("Repeated contents are rewritten once per conversion, found by fingerprint and told apart by their bytes")
struct RepeatedRewritesTests {
    /// Appends a byte to each tile, and counts the tiles it saw by their first byte.
    final class CountingTransform: TileTransform {
        let applied = Mutex<[UInt8: Int]>([:])
        var identity: String { "counting" }

        func apply(_ tile: Tile, codecs: TileRecompressor.Codecs) throws(TileStoreError) -> TileTransformOutcome {
            applied.withLock { $0[tile.data.first ?? 0, default: 0] += 1 }
            if tile.data.first == 0xEE { throw TileStoreError(.invalidTile, store: "s", item: "tile \(tile.coordinate)", message: "is bad") }
            if tile.data.first == 0xDD { return .dropped(.noLayersLeft) }
            return .rewritten(Tile(coordinate: tile.coordinate, data: tile.data + [0x2A], modificationTime: tile.modificationTime))
        }
    }

    static func tile(_ index: Int, _ bytes: [UInt8]) -> Tile {
        Tile(coordinate: TileCoordinate(unchecked: 10, index, 7), data: Data(bytes))
    }

    @Test("Ten tiles of five contents: each rewritten once over two batches (a failing one once a batch), every outcome with its own coordinate")
    func rewrittenOnce() throws {
        let counting = CountingTransform()
        let rewriter = TileRewriter(stages: [counting], settings: TileTransformSettings())
        let repeats = RepeatedRewrites()
        let contents: [[UInt8]] = [[1, 1], [2, 2, 2], [1, 1], [0xDD], [2, 2, 2], [1, 1], [0xEE], [3], [0xEE], [1, 1]]
        let tiles = contents.enumerated().map { Self.tile($0.offset, $0.element) }
        let first = rewriter.outcomes(of: tiles, repeats: repeats)
        let second = rewriter.outcomes(of: Array(tiles.reversed()), repeats: repeats)
        // A content that fails is not remembered: tried again in the second batch.
        #expect(counting.applied.withLock { $0 } == [1: 1, 2: 1, 0xDD: 1, 0xEE: 2, 3: 1])
        for (outcomes, order) in [(first, tiles), (second, Array(tiles.reversed()))] {
            #expect(outcomes.count == order.count)
            for (outcome, tile) in zip(outcomes, order) {
                switch (tile.data.first, outcome) {
                case (0xEE, .failure(let error)):
                    #expect(error.item == "tile \(tile.coordinate)" && error.message == "is bad")
                case (0xDD, .success(.dropped(.noLayersLeft))):
                    break
                case (_, .success(.rewritten(let written))):
                    #expect(written.coordinate == tile.coordinate && written.data == tile.data + [0x2A])
                default:
                    Issue.record("tile \(tile.coordinate) (\(Array(tile.data))): \(outcome)")
                }
            }
        }
    }

    @Test("Where fewer than 1 tile in 32 repeats over 2,048, the memo rests for 16,384 tiles, then looks again; 1 in 32 keeps it looking")
    func rests() {
        let repeats = RepeatedRewrites()
        for _ in 0..<4 {
            #expect(repeats.looksUp(512))
            repeats.record(512, saved: 15)
        }
        var passed = 0
        while passed <= RepeatedRewrites.restingTiles, !repeats.looksUp(512) { passed += 512 }
        #expect(passed == RepeatedRewrites.restingTiles)
        for _ in 0..<8 {
            #expect(repeats.looksUp(512))
            repeats.record(512, saved: 16)
        }
    }

    @Test("A key is its bytes: equal bytes from a slice and a copy are one content, other bytes another; a kept key holds only its bytes")
    func contentKeys() {
        let buffer = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 31) })
        let slice = buffer[1000..<1400]
        let copy = Data(Array(slice))
        #expect(RepeatedRewrites.Content(slice) == RepeatedRewrites.Content(copy))
        #expect(RepeatedRewrites.Content(slice).hashValue == RepeatedRewrites.Content(copy).hashValue)
        var changed = Array(copy)
        changed[200] ^= 1
        #expect(RepeatedRewrites.Content(Data(changed)) != RepeatedRewrites.Content(copy))
        let kept = RepeatedRewrites.Content(slice).compacted
        #expect(kept.data.startIndex == 0 && kept.data.count == 400 && kept.data == copy)
        #expect(kept == RepeatedRewrites.Content(slice))
    }
}
