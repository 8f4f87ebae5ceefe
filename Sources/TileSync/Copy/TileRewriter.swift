import Foundation

/// What a conversion or sync does to each tile's bytes on the way: vector tiles recompressed
/// (`--compress`, `TileRecompressor`), raster tiles re-encoded, or left out when empty
/// (`--tile-format`, `--drop-empty`, `RasterReencoder`). Batches are spread over every core.
struct TileRewriter: Sendable {
    let recompressor: TileRecompressor?
    let reencoder: RasterReencoder?

    /// What one tile became.
    enum Outcome {
        case rewritten(Tile)
        /// Written as it is: a raster tile under `--compress` only (`rasterPassed`), a vector tile
        /// under raster-only settings, or a raster tile whose re-encoding was not smaller.
        case unchanged(rasterPassed: Bool, smaller: Bool)
        case dropped
    }

    /// nil when neither option asks for anything.
    /// - Throws: `TileStoreError` for contradicting settings or undeclared compressions.
    init?(compression: TileCompression?, raster: RasterReencoder.Encoding?, reader: any TileReader) throws {
        guard compression != nil || raster != nil else { return nil }
        let store = reader.location.address
        recompressor = try compression.map { TileRecompressor(target: $0, declared: try reader.declaredTileCompression(), store: store) }
        reencoder = try raster.map { try RasterReencoder(encoding: $0, store: store) }
    }

    /// The compression written tiles declare (`compression` metadata), when recompressing.
    var targetCompression: TileCompression? { recompressor.map { $0.target == .zlib ? .gzip : $0.target } }

    /// A string that changes when the rewriting does (sync identities, the rewrite memo).
    var identity: String {
        [recompressor.map { "compress \($0.target.rawValue)" }, reencoder.map { "raster \($0.encoding.settingsDescription)" }]
            .compactMap { $0 }.joined(separator: ", ")
    }

    /// One tile rewritten.
    func rewrite(_ tile: Tile, encoders: TileRecompressor.Encoders) throws(TileStoreError) -> Outcome {
        let format = SniffedTileFormat(sniffing: tile.data).format
        if [.png, .jpeg, .webp, .gif].contains(format) || reencoder?.encoding.format != nil {
            guard let reencoder else { return .unchanged(rasterPassed: true, smaller: false) }
            switch try reencoder.reencode(tile) {
            case .reencoded(let data): return .rewritten(Tile(coordinate: tile.coordinate, data: data, modificationTime: tile.modificationTime))
            case .kept(let smaller): return .unchanged(rasterPassed: false, smaller: smaller)
            case .dropped: return .dropped
            }
        }
        guard let recompressor else { return .unchanged(rasterPassed: false, smaller: false) }
        return try recompressor.recompress(tile, encoders: encoders).map { .rewritten($0) } ?? .unchanged(rasterPassed: true, smaller: false)
    }

    /// Each tile's outcome or error, in order, rewritten on every core. With `repeats`, a tile
    /// whose bytes were rewritten before (in this batch or an earlier one) is not rewritten again.
    func outcomes(of tiles: [Tile], repeats: RepeatedRewrites? = nil) -> [Result<Outcome, TileStoreError>] {
        guard let repeats else { return rewriteEach(tiles) }
        let hashes = tiles.map { ContentHash(of: $0.data) }
        var known: [Int: RepeatedRewrites.Remembered] = [:]
        var firstWithHash: [ContentHash: Int] = [:]
        var distinct: [Int] = []
        for (index, hash) in hashes.enumerated() {
            if let remembered = repeats.outcome(of: hash) {
                known[index] = remembered
            } else if firstWithHash[hash] == nil {
                firstWithHash[hash] = distinct.count
                distinct.append(index)
            }
        }
        let fresh = rewriteEach(distinct.map { tiles[$0] })
        for (index, result) in zip(distinct, fresh) {
            if case .success(let outcome) = result { repeats.remember(RepeatedRewrites.Remembered(outcome), of: hashes[index]) }
        }
        return tiles.enumerated().map { index, tile in
            if let remembered = known[index] { return .success(remembered.outcome(for: tile)) }
            guard let position = firstWithHash[hashes[index]] else { return .success(.dropped) }
            return fresh[position].map { RepeatedRewrites.Remembered($0).outcome(for: tile) }.mapError { error in
                TileStoreError(error.kind, store: error.store, item: "tile \(tile.coordinate)", message: error.message, hint: error.hint)
            }
        }
    }

    private func rewriteEach(_ tiles: [Tile]) -> [Result<Outcome, TileStoreError>] {
        var results = [Result<Outcome, TileStoreError>](repeating: .success(.dropped), count: tiles.count)
        // Raster tiles take milliseconds each: one tile an iteration keeps every core busy to
        // the end of the batch. Vector tiles take microseconds: one run of tiles a core.
        let iterations = reencoder != nil ? tiles.count : max(1, min(tiles.count, ProcessInfo.processInfo.activeProcessorCount))
        let step = reencoder != nil ? tiles.count : iterations
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            DispatchQueue.concurrentPerform(iterations: iterations) { iteration in
                let encoders = TileRecompressor.Encoders()
                for index in stride(from: iteration, to: tiles.count, by: step) {
                    do throws(TileStoreError) {
                        output[index] = .success(try rewrite(tiles[index], encoders: encoders))
                    } catch {
                        output[index] = .failure(error)
                    }
                }
            }
        }
        return results
    }

    /// A batch rewritten on every core, in order, without the dropped tiles; tiles that fail are
    /// counted with `skipInvalid`; contents `repeats` knows are not rewritten again.
    /// - Throws: the first failing tile's error when `skipInvalid` is false.
    func rewrite(_ tiles: [Tile], skipInvalid: Bool, invalid: inout SkippedItems, tally: inout TileRewriteTally,
                 repeats: RepeatedRewrites? = nil) throws -> [Tile] {
        var done: [Tile] = []
        done.reserveCapacity(tiles.count)
        for (tile, result) in zip(tiles, outcomes(of: tiles, repeats: repeats)) {
            switch result {
            case .success(let outcome):
                if let written = tally.record(outcome, for: tile, counting: reencoder != nil) { done.append(written) }
            case .failure(let error):
                guard skipInvalid else { throw error }
                invalid.record(error.item ?? "tile \(tile.coordinate)", reason: error.message)
            }
        }
        return done
    }
}
