import Foundation

/// Tiles gathered for `verify --deep` until a batch is worth spreading over every core (512
/// tiles or 16 MB, so memory stays bounded), then checked in parallel with their problems
/// recorded in the tiles' order.
struct TileContentBatch {
    static let maxTiles = 512
    static let maxBytes = 16 << 20

    private var tiles: [Tile] = []
    private var bytes = 0

    /// Adds a tile; true when the batch is full.
    mutating func add(_ tile: Tile) -> Bool {
        tiles.append(tile)
        bytes += tile.data.count
        return tiles.count >= Self.maxTiles || bytes >= Self.maxBytes
    }

    /// Checks and empties the batch.
    mutating func check(with content: TileContentCheck, into report: inout StoreVerifier.Report) {
        guard !tiles.isEmpty else { return }
        let tiles = self.tiles
        var found = [[String]](repeating: [], count: tiles.count)
        found.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            // A few runs of interleaved tiles a core: images take milliseconds each, vector tiles
            // microseconds, and each run keeps its decoders between tiles.
            let runs = min(tiles.count, ProcessInfo.processInfo.activeProcessorCount * 8)
            DispatchQueue.concurrentPerform(iterations: runs) { run in
                let codecs = TileRecompressor.Codecs()
                for index in stride(from: run, to: tiles.count, by: runs) {
                    output[index] = content.problems(of: tiles[index], codecs: codecs)
                }
            }
        }
        for (tile, messages) in zip(tiles, found) {
            for message in messages {
                report.record(.init(category: .content, item: "tile \(tile.coordinate)", message: message, isFixable: false))
            }
        }
        self.tiles.removeAll(keepingCapacity: true)
        bytes = 0
    }
}
