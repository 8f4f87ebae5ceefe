/// A store that tiles can be written to. Writes become visible all at once in `finish()`;
/// `abort()` (or dropping the writer unfinished) leaves the destination as it was.
///
/// Call order: `begin(metadata:format:)` once, then any number of `write(_:hash:duplicateOf:)`,
/// then `finish()` or `abort()`. Metadata comes first because a tar archive carries it as its
/// first entry. A writer says what it needs (`wantsHashes`, `deduplication`, `preferredOrder`),
/// and the converter gives it that.
public protocol TileWriter: AnyObject {
    /// Where the store goes, as the user named it.
    var location: TileStoreLocation { get }
    /// True when `write` uses each tile's MD5 (stored hashes, dedup); otherwise it may be
    /// `ContentHash.unknown`.
    var wantsHashes: Bool { get }
    /// How this writer keeps repeated blobs; `.linksRepeats` wants `duplicateOf:` filled in.
    var deduplication: TileStoreCapabilities.Deduplication { get }
    /// The order tiles are best written in (an index's order, so inserts append).
    var preferredOrder: TileOrder { get }
    /// What it can do for a conversion beyond taking tiles (`.none` by default).
    var abilities: TileWriterAbilities { get }

    /// Starts writing, recording the metadata the store will hold.
    /// - Parameter format: what the tiles are (from their bytes, else the metadata): a folder
    ///   names its files with its extension.
    /// - Throws: `TileStoreError` when the destination cannot be prepared.
    func begin(metadata: TileMetadata, format: SniffedTileFormat) throws

    /// Adds or replaces one tile (a repeated coordinate: the last write wins).
    /// - Parameters:
    ///   - hash: the MD5 of `tile.data` when `wantsHashes`.
    ///   - original: an earlier tile of this run with the same bytes, when the writer links
    ///     repeats; it stores a reference to it instead of the bytes.
    /// - Throws: `TileStoreError` of kind `.io` when writing fails.
    func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws

    /// Makes everything written visible at the destination, atomically.
    /// - Throws: `TileStoreError` when committing fails; the destination is then unchanged.
    func finish() throws

    /// Drops everything written; the destination stays as it was. Never throws.
    func abort()

    /// True when the store keeps UTFGrids (`write(grid:)`); false by default.
    var acceptsGrids: Bool { get }

    /// Adds or replaces the UTFGrid of a coordinate, after the last tile and before `finish()`.
    /// - Throws: `TileStoreError` `.unsupported` for kinds that keep none, `.io` when writing fails.
    func write(grid: UTFGrid) throws
}

extension TileWriter {
    public var acceptsGrids: Bool { false }
    public var abilities: TileWriterAbilities { .none }

    public func write(grid: UTFGrid) throws {
        throw TileStoreError(.unsupported, store: location.address, message: "keeps no UTFGrids")
    }

    /// Starts writing tiles of the format the metadata declares.
    /// - Throws: `TileStoreError` when the destination cannot be prepared.
    public func begin(metadata: TileMetadata) throws {
        try begin(metadata: metadata, format: SniffedTileFormat(metadata.format ?? .unknown))
    }

    /// Adds or replaces one tile, hashing it here.
    public func write(_ tile: Tile) throws {
        try write(tile, hash: ContentHash(of: tile.data), duplicateOf: nil)
    }
}
