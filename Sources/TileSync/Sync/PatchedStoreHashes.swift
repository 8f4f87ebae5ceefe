/// The aggregate hash of a store as it is and as it would be with a patch applied, found in one
/// pass that merges the store's tiles (in the hash's order) with the patch's rows, and what the
/// patch would do there: tiles added, replaced, deleted, and deletions of tiles that are absent.
struct PatchedStoreHashes {
    /// The store's `agg_tiles_hash` now.
    var current: ContentHash
    /// The store's `agg_tiles_hash` once the patch is applied.
    var patched: ContentHash
    var added = 0
    var replaced = 0
    var deleted = 0
    /// Deletions of tiles the store does not have.
    var absentDeletions = 0
    /// Bytes the patch puts.
    var bytesPut = 0
    /// Invalid store tiles the hashes leave out (as every store but an MBTiles' own does).
    var skippedInvalidTiles = 0

    /// - Parameter current: the store's `agg_tiles_hash` when already known (then only the
    ///   patched one is computed).
    /// - Throws: `TileStoreError` from the store or the patch.
    static func compute(store reader: any TileReader, patch: PatchFileReader, current: ContentHash? = nil) throws -> PatchedStoreHashes {
        var skipped = 0
        var merge = try AggregateHashCalculator.fold(reader, skipped: &skipped,
                                                     start: { try Merge(changes: patch.changes(), store: reader.location, knownCurrent: current) },
                                                     add: { merge, tile in try merge.add(tile) })
        var hashes = try merge.finish()
        hashes.skippedInvalidTiles = skipped
        return hashes
    }

    /// The two MD5 streams run side by side: the patched one on a thread of its own.
    private struct Merge {
        let changes: PatchChangeCursor
        let store: TileStoreLocation
        var pending: PatchChange?
        /// Nil when the store's hash is known.
        let current: BackgroundAggregateHash?
        let knownCurrent: ContentHash?
        let patched = BackgroundAggregateHash()
        var counts = PatchedStoreHashes(current: .ofEmpty, patched: .ofEmpty)

        init(changes: PatchChangeCursor, store: TileStoreLocation, knownCurrent: ContentHash?) throws {
            self.changes = changes
            self.store = store
            self.knownCurrent = knownCurrent
            current = knownCurrent == nil ? BackgroundAggregateHash() : nil
            pending = try changes.next()
        }

        mutating func add(_ tile: Tile) throws {
            let key = Self.key(tile.coordinate)
            while let change = pending, Self.key(change.coordinate) < key {
                try take(change, storeHasTile: false)
            }
            current?.add(tile.coordinate, data: tile.data)
            guard let change = pending, Self.key(change.coordinate) == key else {
                patched.add(tile.coordinate, data: tile.data)
                return
            }
            try take(change, storeHasTile: true)
        }

        /// Counts a row, adds what it puts to the patched stream, moves to the next row.
        private mutating func take(_ change: PatchChange, storeHasTile: Bool) throws {
            if let data = change.data {
                patched.add(change.coordinate, data: data)
                if storeHasTile { counts.replaced += 1 } else { counts.added += 1 }
                counts.bytesPut += data.count
            } else if storeHasTile {
                counts.deleted += 1
            } else {
                counts.absentDeletions += 1
            }
            pending = try changes.next()
        }

        mutating func finish() throws -> PatchedStoreHashes {
            while let change = pending {
                try take(change, storeHasTile: false)
            }
            var result = counts
            guard let currentHash = knownCurrent ?? current?.finalize() else {
                throw TileStoreError(.io, store: store.address, message: "cannot compute the agg_tiles_hash")
            }
            result.current = currentHash
            guard let patchedHash = patched.finalize() else {
                throw TileStoreError(.io, store: store.address, message: "cannot compute the patched agg_tiles_hash")
            }
            result.patched = patchedHash
            return result
        }

        private static func key(_ coordinate: TileCoordinate) -> (Int, Int, Int) { (coordinate.z, coordinate.x, coordinate.tmsY) }
    }
}
