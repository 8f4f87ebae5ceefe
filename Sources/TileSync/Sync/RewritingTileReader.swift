import Foundation

/// A sync's source seen through a `TileRewriter` (`--compress`, `--tile-format`,
/// `--drop-empty`), so that the sync compares and writes the bytes the destination is to hold:
/// its index gives the MD5 of each tile's rewritten bytes (empty tiles that are dropped are
/// absent), its metadata the new `compression` and `format`. Through a `RewriteMemo`, a tile
/// whose bytes a run already rewrote under the same settings is not rewritten again to be
/// compared, and a tile rewritten for the comparison is not rewritten again to be written.
/// Batches are rewritten on every core. Everything else is the source's.
final class RewritingTileReader: TileReader, CompressionDeclaring, SelectiveStreaming {
    /// Tiles read and rewritten together.
    static let batchTiles = 64

    private let source: any TileReader
    private let rewriter: TileRewriter
    private let memoPath: String?
    private var openedMemo: RewriteMemo?
    /// What the rewriter did while this reader was listed and read: the distinct source contents
    /// it re-encoded (a content repeated, or known from the memo, is not re-encoded again), and
    /// the listed tiles it dropped.
    let tally = LockedRewriteTally()
    /// Set when an index of this reader reached its end (so the memo knows the whole source).
    var listedWholeSource = false

    /// - Parameter memoPath: where the memo of the last run is kept (nil: for this run only).
    init(_ source: any TileReader, rewriter: TileRewriter, memoPath: String?) {
        self.source = source
        self.rewriter = rewriter
        self.memoPath = memoPath
    }

    var location: TileStoreLocation { source.location }
    var schemaDescription: String { source.schemaDescription }
    var order: TileOrder { source.order }
    /// The source's kept downloads, consistent reads, inspection, cancellation and grids, which the
    /// rewriting does not change, and its own compression declaration (the target's); no other
    /// role (the rewritten bytes are neither stored nor rereadable, and their aggregate hash is
    /// not the source's).
    var roles: TileReaderRoles {
        TileReaderRoles(downloadKeeping: source.roles.downloadKeeping, consistentReads: source.roles.consistentReads,
                        inspection: source.roles.inspection, cancellation: source.roles.cancellation,
                        grids: source.roles.grids, compressionDeclaration: self,
                        selectiveStreaming: source.roles.selectiveStreaming == nil ? nil : self)
    }
    /// The source's, but for a listing, whose hashes are the source's bytes, not the rewritten.
    var traits: TileReaderTraits {
        var traits = source.traits
        traits.listingKnowsContent = false
        return traits
    }

    func metadata() throws -> TileMetadata {
        var metadata = try source.metadata()
        rewriter.adjust(&metadata)
        return metadata
    }

    func declaredTileCompression() throws -> TileCompression? {
        try rewriter.targetCompression ?? source.declaredTileCompression()
    }

    func tiles(matching filter: TileFilter) throws -> any TileCursor {
        RewrittenTileCursor(base: try source.tiles(matching: filter), reader: self, wanted: nil)
    }

    func tiles(matching filter: TileFilter, preferring preferred: TileOrder) throws -> any TileCursor {
        RewrittenTileCursor(base: try source.tiles(matching: filter, preferring: preferred), reader: self, wanted: nil)
    }

    /// The tiles at the coordinates `wanted` accepts, rewritten (others are read, not rewritten;
    /// not even read when the source streams selectively).
    func tiles(matching filter: TileFilter, wanted: @escaping (TileCoordinate) throws -> Bool) throws -> any TileCursor {
        let base = try source.roles.selectiveStreaming?.tiles(matching: filter, wanted: wanted) ?? source.tiles(matching: filter)
        return RewrittenTileCursor(base: base, reader: self, wanted: wanted)
    }

    func tile(at coordinate: TileCoordinate) throws -> Data? {
        guard let data = try source.tile(at: coordinate) else { return nil }
        return try rewritten([Tile(coordinate: coordinate, data: data)]).first?.get()?.data
    }

    func index(matching filter: TileFilter) throws -> any TileIndexCursor {
        RewrittenIndexCursor(base: try source.tiles(matching: filter), reader: self)
    }

    func listing(matching filter: TileFilter) throws -> any TileIndexCursor {
        try index(matching: filter)
    }


    func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        try source.summary(matching: filter, countingBytes: countingBytes)
    }

    func amount(matching filter: TileFilter, upTo limit: Int) throws -> TileAmount? {
        try source.amount(matching: filter, upTo: limit).map { TileAmount(tiles: $0.tiles, bytes: $0.bytes, isLowerBound: $0.isLowerBound) }
    }




    /// The format the tiles will have: from the settings when they name one (nothing
    /// rewritten), else the first tile's, rewritten; nil when the source has no tile.
    func firstTileFormat(matching filter: TileFilter) throws -> SniffedTileFormat? {
        if let format = rewriter.targetFormat {
            var ignored = SkippedItems()
            let cursor = try source.tiles(matching: filter)
            return try TileConverter.nextTile(cursor, skipInvalid: true, invalidTiles: &ignored) == nil ? nil : SniffedTileFormat(format)
        }
        let cursor = try tiles(matching: filter)
        var ignored = SkippedItems()
        let declared = try declaredTileCompression(), declaredFormat = try metadata().format
        return try TileConverter.nextTile(cursor, skipInvalid: true, invalidTiles: &ignored).map {
            SniffedTileFormat(sniffing: $0.data, declaredCompression: declared, declaredFormat: declaredFormat)
        }
    }

    /// The rewriter's notes (layers the filter names that no tile holds) when this run looked
    /// into every tile of the source itself; else (the index came from elsewhere, or some tiles'
    /// rewriting from the last run's memo, which cannot tell what they hold) what the source's
    /// metadata says (named layers its `vector_layers` does not list).
    var rewriterNotes: [String] {
        if listedWholeSource && openedMemo?.answeredFromLastRun != true { return rewriter.notes() }
        return (try? source.metadata()).map { rewriter.notes(fromMetadata: $0) } ?? []
    }

    /// After a sync whose index reached the end: the memo of this run replaces the last one.
    /// Does nothing otherwise.
    func finishMemo() throws {
        guard listedWholeSource, let openedMemo else { return }
        do {
            try openedMemo.finish()
        } catch {
            throw TileStoreError(.io, store: memoPath ?? location.address, message: "the memo of rewritten tiles cannot be saved: \(error)")
        }
    }

    private func memo() throws -> RewriteMemo {
        if let openedMemo { return openedMemo }
        do {
            let memo = try RewriteMemo(path: memoPath, identity: rewriter.identity)
            openedMemo = memo
            return memo
        } catch {
            throw TileStoreError(.io, store: memoPath ?? location.address, message: "the memo of rewritten tiles cannot be opened: \(error)")
        }
    }

    /// Each tile as it is to be written (nil: dropped), or its error, in order. A tile rewritten
    /// earlier in this run is taken from the memo; the others are rewritten on every core.
    func rewritten(_ tiles: [Tile]) throws -> [Result<Tile?, TileStoreError>] {
        let memo = try memo()
        let hashes = tiles.map { ContentHash(of: $0.data) }
        var results = [Result<Tile?, TileStoreError>?](repeating: nil, count: tiles.count)
        var missing: [Int] = []
        for (index, tile) in tiles.enumerated() {
            if let bytes = try storeError({ try memo.freshBytes(forSource: hashes[index]) }) {
                results[index] = .success(Tile(coordinate: tile.coordinate, data: bytes, modificationTime: tile.modificationTime))
            } else if try storeError({ try memo.entry(forSource: hashes[index], size: tile.data.count) }) == .dropped {
                results[index] = .success(nil)
            } else {
                missing.append(index)
            }
        }
        for (index, result) in try rewrite(tiles, at: missing, hashes: hashes, into: memo) { results[index] = result }
        return results.map { $0 ?? .success(nil) }
    }

    /// Index entries for a batch (nil: dropped), or errors, in order: from the memo where it
    /// knows the source tile's bytes, else rewritten on every core and remembered.
    func entries(_ tiles: [Tile]) throws -> [Result<TileIndexEntry?, TileStoreError>] {
        let memo = try memo()
        let hashes = tiles.map { ContentHash(of: $0.data) }
        var results = [Result<TileIndexEntry?, TileStoreError>?](repeating: nil, count: tiles.count)
        var missing: [Int] = []
        for (index, tile) in tiles.enumerated() {
            switch try storeError({ try memo.entry(forSource: hashes[index], size: tile.data.count) }) {
            case .written(let hash, let size)?:
                results[index] = .success(TileIndexEntry(coordinate: tile.coordinate, size: size, hash: hash, modificationTime: tile.modificationTime))
            case .dropped?: results[index] = .success(nil)
            case nil: missing.append(index)
            }
        }
        for (index, result) in try rewrite(tiles, at: missing, hashes: hashes, into: memo) {
            results[index] = result.map { written in
                written.map { TileIndexEntry(coordinate: $0.coordinate, size: $0.data.count, hash: ContentHash(of: $0.data), modificationTime: $0.modificationTime) }
            }
        }
        var dropped = TileRewriteTally()
        dropped.raster.droppedEmpty = results.count { if case .success(nil)? = $0 { true } else { false } }
        tally.add(dropped)
        return results.map { $0 ?? .success(nil) }
    }

    /// The tiles at `indexes` rewritten on every core, each distinct content once, remembered in
    /// the memo; results keyed by index, each with its own coordinate. The tally counts the
    /// contents rewritten, but not dropped ones: the index counts those per tile.
    private func rewrite(_ tiles: [Tile], at indexes: [Int], hashes: [ContentHash], into memo: RewriteMemo) throws -> [(Int, Result<Tile?, TileStoreError>)] {
        var counted = TileRewriteTally()
        defer {
            counted.raster.droppedEmpty = 0
            tally.add(counted)
        }
        let counting = rewriter.reencodesRaster
        let outcomes = rewriter.outcomes(of: indexes.map { tiles[$0] }, repeats: RepeatedRewrites())
        var recorded = Set<ContentHash>()
        var done: [(Int, Result<Tile?, TileStoreError>)] = []
        for (index, outcome) in zip(indexes, outcomes) {
            let firstOfContent = recorded.insert(hashes[index]).inserted
            var tallied = TileRewriteTally()
            let result = outcome.map { tallied.record($0, for: tiles[index], counting: counting) }
            done.append((index, result))
            guard firstOfContent, case .success(let written) = result else { continue }
            counted.add(tallied)
            try storeError {
                if let written {
                    try memo.record(.written(hash: ContentHash(of: written.data), size: written.data.count), forSource: hashes[index],
                                    size: tiles[index].data.count, bytes: written.data)
                } else {
                    try memo.record(.dropped, forSource: hashes[index], size: tiles[index].data.count, bytes: nil)
                }
            }
        }
        return done
    }

    private func storeError<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw TileStoreError(.io, store: memoPath ?? location.address, message: "the memo of rewritten tiles failed: \(error)")
        }
    }
}
