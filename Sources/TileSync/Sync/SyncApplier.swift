/// Phase 2 of a sync: carries out the plan through the destination's `TileUpdater` (no
/// destination reader is open any more), reading source bytes by random access, or in one
/// streaming pass for a source without it, or for a source that streams selectively (a remote
/// PMTiles) only the planned tiles in merged requests; records each written tile's MD5 in the
/// next state.
struct SyncApplier {
    let context: SyncContext
    let plan: SyncPlanTable
    let nextState: SyncStateWriter?
    /// The UTFGrids to change after the tiles, when either store keeps any.
    var grids: UTFGridComparison? = nil

    /// Applies the plan with `metadata` through `updater` (the destination's when nil); the
    /// updater commits at the end or aborts on error.
    func apply(metadata: TileMetadata, format: SniffedTileFormat, through updater: (any TileUpdater)? = nil) throws {
        let updater = try updater ?? context.destination.makeUpdater()
        do {
            try updater.begin(metadata: metadata, format: format)
            if context.sourceReader.hasCheapRandomAccess, context.sourceReader.roles.selectiveStreaming == nil {
                try writeByRandomAccess(to: updater)
            } else {
                try writeByStreaming(to: updater)
            }
            try plan.rows([.delete]) { try updater.remove($0.coordinate) }
            if let grids, updater.acceptsGrids {
                try grids.forEachChanged { try updater.put(grid: $0) }
                if context.options.delete { try grids.forEachOnlyInDestination { try updater.removeGrid(at: $0) } }
            }
            try updater.finish()
        } catch {
            updater.abort()
            throw error
        }
    }

    private func writeByRandomAccess(to updater: any TileUpdater) throws {
        try plan.rows([.add, .replace]) { row in
            guard let data = try context.sourceReader.tile(at: row.coordinate) else {
                throw TileStoreError(.invalidTile, store: context.source.address, item: "tile \(row.coordinate)",
                                     message: "disappeared during the sync")
            }
            try write(Tile(coordinate: row.coordinate, data: data), row: row, to: updater)
        }
    }

    private func writeByStreaming(to updater: any TileUpdater) throws {
        let planned: (TileCoordinate) throws -> Bool = { [plan] coordinate in
            guard let row = try plan.row(at: coordinate) else { return false }
            return row.action == .add || row.action == .replace
        }
        let cursor = if let rewriting = context.rewritingSource {
            try rewriting.tiles(matching: context.options.filter, wanted: planned)
        } else if let selective = context.sourceReader.roles.selectiveStreaming {
            try selective.tiles(matching: context.options.filter, wanted: planned)
        } else {
            try context.sourceReader.tiles(matching: context.options.filter)
        }
        var ignored = SkippedItems()
        var written = 0
        while let tile = try TileConverter.nextTile(cursor, skipInvalid: context.options.skipInvalid, invalidTiles: &ignored) {
            guard let row = try plan.row(at: tile.coordinate), row.action == .add || row.action == .replace else { continue }
            try write(tile, row: row, to: updater)
            written += 1
        }
        let plannedCount = try plan.count(of: [.add, .replace])
        if written + ignored.count < plannedCount {
            throw TileStoreError(.invalidTile, store: context.source.address, item: "\(plannedCount - written) of \(plannedCount) planned tiles",
                                 message: "disappeared during the sync (the source changed while it was read)")
        }
    }

    private func write(_ tile: Tile, row: SyncPlanTable.Row, to updater: any TileUpdater) throws {
        if context.options.isCancelled() {
            throw TileStoreError(.interrupted, store: context.destination.address, message: "interrupted; the destination was not changed")
        }
        let hash = ContentHash(of: tile.data)
        try updater.put(tile, hash: hash, modificationTime: row.sourceModificationTime ?? context.syncTime)
        try nextState?.record(tile.coordinate, hash: hash, size: tile.data.count)
    }
}
