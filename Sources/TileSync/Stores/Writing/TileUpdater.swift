/// A store changed in place by a sync: tiles put and removed, then committed together.
///
/// Call order: `begin(metadata:format:)`, any `put`/`remove`, then `finish()` or `abort()`.
/// Each kind makes the commit as atomic as its store allows and documents how (a transaction,
/// a journal that the next run completes, a rewritten file renamed into place). A store that
/// does not exist yet is created by the commit, and `abort()` leaves nothing behind.
public protocol TileUpdater: AnyObject {
    /// The store being changed.
    var location: TileStoreLocation { get }

    /// Starts a change, replacing the store's metadata with `metadata`.
    /// - Parameter format: what the tiles put are (a folder names new files with its extension).
    func begin(metadata: TileMetadata, format: SniffedTileFormat) throws

    /// Adds or replaces a tile.
    /// - Parameter modificationTime: for stores with a file per tile, the time to give the file
    ///   (ns since 1970), so a later quick check sees it unchanged; ignored by other stores.
    func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws

    /// Removes the tile at a coordinate (nothing when there is none).
    func remove(_ coordinate: TileCoordinate) throws

    /// Rewrites every stored hash that is not the MD5 of its bytes (`verify --fix`).
    /// - Throws: `TileStoreError` `.unsupported` (the default) when the store keeps no hashes.
    func rebuildStoredHashes() throws

    /// Commits every change.
    func finish() throws

    /// Drops every change not yet made; the store stays as it was when `commitsAtomically`.
    func abort()

    /// True (the default) when nothing `put` or `remove` does is seen before `finish()`, so an
    /// `abort()` leaves the store as it was; false for a store changed object by object (S3),
    /// where an interrupted change leaves some of it made, for the next run to complete.
    var commitsAtomically: Bool { get }

    /// martin's `agg_tiles_hash` of the store as `finish()` committed it, when the updater
    /// computed one on the way (an MBTiles does, before its commit); nil by default.
    var committedAggregateHash: ContentHash? { get }

    /// Gives the aggregate hash the committed store will have, computed by the caller under
    /// this change (a patch's check), so an updater that stores `agg_tiles_hash` writes it
    /// instead of reading every tile again. Ignored by default.
    func setCommittedAggregateHash(_ hash: ContentHash)

    /// Asks `body` to be called with the `agg_tiles_hash` the commit writes, after the changes
    /// and just before `finish()` commits them; an error from `body` aborts the commit.
    /// - Returns: false (the default) when the updater computes no such hash (`body` is dropped).
    func callBeforeCommit(_ body: @escaping (ContentHash) throws -> Void) -> Bool

    /// Replaces the store's metadata and leaves every tile as it is, in one commit. The
    /// default is `begin` then `finish` with no tile changed (a folder rewrites
    /// `metadata.json` through its journal, a tar or PMTiles is rewritten); an MBTiles changes
    /// only its `metadata` table.
    /// - Throws: `TileStoreError` when the store cannot be changed; it is then as it was.
    func replaceMetadata(_ metadata: TileMetadata) throws

    /// True when the store keeps UTFGrids that `put(grid:)` and `removeGrid(at:)` change;
    /// false by default.
    var acceptsGrids: Bool { get }

    /// Adds or replaces the UTFGrid of a coordinate, in the same commit as the tiles.
    /// - Throws: `TileStoreError` `.unsupported` for stores that keep none.
    func put(grid: UTFGrid) throws

    /// Removes the UTFGrid of a coordinate (nothing when there is none).
    /// - Throws: `TileStoreError` `.unsupported` for stores that keep none.
    func removeGrid(at coordinate: TileCoordinate) throws
}

extension TileUpdater {
    public var committedAggregateHash: ContentHash? { nil }

    public var commitsAtomically: Bool { true }

    public var acceptsGrids: Bool { false }

    public func put(grid: UTFGrid) throws {
        throw TileStoreError(.unsupported, store: location.address, message: "keeps no UTFGrids")
    }

    public func removeGrid(at coordinate: TileCoordinate) throws {
        throw TileStoreError(.unsupported, store: location.address, message: "keeps no UTFGrids")
    }

    public func setCommittedAggregateHash(_ hash: ContentHash) {}

    public func callBeforeCommit(_ body: @escaping (ContentHash) throws -> Void) -> Bool { false }

    public func replaceMetadata(_ metadata: TileMetadata) throws {
        do {
            try begin(metadata: metadata)
            try finish()
        } catch {
            abort()
            throw error
        }
    }

    public func rebuildStoredHashes() throws {
        throw TileStoreError(.unsupported, store: location.address, message: "keeps no hashes to rebuild")
    }

    /// Starts a change with tiles of the format the metadata declares.
    public func begin(metadata: TileMetadata) throws {
        try begin(metadata: metadata, format: SniffedTileFormat(metadata.format ?? .unknown))
    }
}
