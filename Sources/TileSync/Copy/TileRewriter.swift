import Foundation

/// What a conversion or sync does to each tile's bytes on the way: the stages of
/// `TileTransforms.kinds` the settings ask for, in order (vector layers and fields filtered,
/// vector tiles recompressed, raster tiles re-encoded or left out when empty). Batches are
/// spread over every core.
struct TileRewriter: Sendable {
    let stages: [any TileTransform]
    let settings: TileTransformSettings

    /// What one tile became.
    enum Outcome {
        case rewritten(Tile)
        /// Written as it is: a raster tile under `--compress` only (`rasterPassed`), a vector tile
        /// under raster-only settings, or a raster tile whose re-encoding was not smaller.
        case unchanged(rasterPassed: Bool, smaller: Bool)
        /// Not written: a fully transparent raster tile, a vector tile left without a layer.
        case dropped(TileTransformNote)
    }

    /// nil when the settings ask for nothing.
    /// - Throws: `TileStoreError` for contradicting settings or undeclared compressions.
    init?(settings: TileTransformSettings, reader: any TileReader) throws {
        let stages = try TileTransforms.stages(settings, reader: reader)
        guard !stages.isEmpty else { return nil }
        self.stages = stages
        self.settings = settings
    }

    /// The given stages (tests); `settings` says what they were made from.
    init(stages: [any TileTransform], settings: TileTransformSettings) {
        self.stages = stages
        self.settings = settings
    }

    /// The compression written tiles declare (`compression` metadata), when recompressing.
    var targetCompression: TileCompression? { settings.compression.map { $0 == .zlib ? .gzip : $0 } }

    /// The raster format written tiles have, when re-encoding names one.
    var targetFormat: TileFormat? { settings.rasterEncoding?.format }

    /// True when raster tiles are re-encoded (the tally then counts bytes before and after).
    var reencodesRaster: Bool { settings.rasterEncoding != nil }

    /// A string that changes when the rewriting does (sync identities, the rewrite memo).
    var identity: String { stages.map(\.identity).joined(separator: ", ") }

    /// The destination's metadata after every stage, without the source's `agg_tiles_hash`
    /// (rewritten bytes no longer give it; stores that maintain one compute their own).
    func adjust(_ metadata: inout TileMetadata) {
        for stage in stages { stage.adjust(&metadata) }
        metadata["agg_tiles_hash"] = nil
    }

    /// What the stages have to say at the end of a run.
    func notes() -> [String] { stages.flatMap { $0.notes() } }

    /// What the stages can say from the source's metadata alone (`TileTransform.notes(fromMetadata:)`).
    func notes(fromMetadata metadata: TileMetadata) -> [String] { stages.flatMap { $0.notes(fromMetadata: metadata) } }

    /// One tile through every stage.
    func rewrite(_ tile: Tile, codecs: TileRecompressor.Codecs) throws(TileStoreError) -> Outcome {
        var current = tile, changed = false, rasterPassed = false, smaller = false
        for stage in stages {
            switch try stage.apply(current, codecs: codecs) {
            case .rewritten(let written):
                current = written
                changed = true
                rasterPassed = false
            case .unchanged(let note):
                if note == .rasterPassed { rasterPassed = true }
                if case .rasterKept(let kept)? = note {
                    rasterPassed = false
                    smaller = kept
                }
            case .dropped(let note):
                return .dropped(note)
            }
        }
        return changed ? .rewritten(current) : .unchanged(rasterPassed: rasterPassed, smaller: smaller)
    }

    /// Each tile's outcome or error, in order, rewritten on every core. With `repeats`, a tile
    /// whose bytes were rewritten before (in this batch or an earlier one) is not rewritten again
    /// (unless the memo rests, where contents did not repeat lately).
    func outcomes(of tiles: [Tile], repeats: RepeatedRewrites? = nil) -> [Result<Outcome, TileStoreError>] {
        guard let repeats, repeats.looksUp(tiles.count) else { return rewriteEach(tiles) }
        let contents = tiles.map { RepeatedRewrites.Content($0.data) }
        var known: [Int: RepeatedRewrites.Remembered] = [:]
        var firstWithContent: [RepeatedRewrites.Content: Int] = [:]
        var distinct: [Int] = []
        for (index, content) in contents.enumerated() {
            if let remembered = repeats.outcome(of: content) {
                known[index] = remembered
            } else if firstWithContent[content] == nil {
                firstWithContent[content] = distinct.count
                distinct.append(index)
            }
        }
        repeats.record(tiles.count, saved: tiles.count - distinct.count)
        let fresh = rewriteEach(distinct.map { tiles[$0] })
        for (index, result) in zip(distinct, fresh) {
            if case .success(let outcome) = result { repeats.remember(RepeatedRewrites.Remembered(outcome), of: contents[index]) }
        }
        return tiles.enumerated().map { index, tile in
            if let remembered = known[index] { return .success(remembered.outcome(for: tile)) }
            guard let position = firstWithContent[contents[index]] else { return .success(.dropped(.emptyRaster)) }
            return fresh[position].map { RepeatedRewrites.Remembered($0).outcome(for: tile) }.mapError { error in
                TileStoreError(error.kind, store: error.store, item: "tile \(tile.coordinate)", message: error.message, hint: error.hint)
            }
        }
    }

    private func rewriteEach(_ tiles: [Tile]) -> [Result<Outcome, TileStoreError>] {
        var results = [Result<Outcome, TileStoreError>](repeating: .success(.dropped(.emptyRaster)), count: tiles.count)
        // Raster tiles take milliseconds each: one tile an iteration keeps every core busy to
        // the end of the batch. Vector tiles take microseconds: four runs of tiles a core, so that
        // a core the reading or writing thread holds for a while does not keep the batch waiting.
        let heavy = stages.contains { $0.isHeavy }
        let iterations = heavy ? tiles.count : max(1, min(tiles.count, ProcessInfo.processInfo.activeProcessorCount * 4))
        let step = heavy ? tiles.count : iterations
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            DispatchQueue.concurrentPerform(iterations: iterations) { iteration in
                let codecs = TileRecompressor.Codecs()
                for index in stride(from: iteration, to: tiles.count, by: step) {
                    do throws(TileStoreError) {
                        output[index] = .success(try rewrite(tiles[index], codecs: codecs))
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
                if let written = tally.record(outcome, for: tile, counting: reencodesRaster) { done.append(written) }
            case .failure(let error):
                guard skipInvalid else { throw error }
                invalid.record(error.item ?? "tile \(tile.coordinate)", reason: error.message)
            }
        }
        return done
    }
}
