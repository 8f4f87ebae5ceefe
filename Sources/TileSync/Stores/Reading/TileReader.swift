public import Foundation

/// A store that tiles can be read from. Implemented once per kind (MBTiles, folder, tar); the
/// converter, the sync engine and verify see only this protocol.
///
/// A reader is not thread-safe unless its type says so: use one per thread.
public protocol TileReader: AnyObject {
    /// Where the store is, as the user named it.
    var location: TileStoreLocation { get }
    /// A short name of the layout, e.g. `flat`, `normalized`, `{z}/{x}/{y}.{ext}`.
    var schemaDescription: String { get }
    /// The order `tiles(matching:)` streams in.
    var order: TileOrder { get }

    /// The store's metadata (empty when it has none).
    /// - Throws: `TileStoreError` when the metadata exists but cannot be read.
    func metadata() throws -> TileMetadata

    /// A lazy stream of the tiles that pass `filter`, in `order`.
    /// - Throws: `TileStoreError` when the stream cannot start; see `TileCursor` for per-tile errors.
    func tiles(matching filter: TileFilter) throws -> any TileCursor

    /// Like `tiles(matching:)`, in `preferred` order where the store can give it at no cost (a
    /// folder lists its rows either way), else in `order`. Converters ask for the destination's
    /// order: an MBTiles destination then inserts in index order and hashes as it goes.
    /// - Throws: `TileStoreError` when the stream cannot start.
    func tiles(matching filter: TileFilter, preferring preferred: TileOrder) throws -> any TileCursor

    /// The bytes of one tile, or nil when the store has no tile there.
    /// - Throws: `TileStoreError` when the store cannot be read or the tile is invalid.
    func tile(at coordinate: TileCoordinate) throws -> Data?

    /// The (coordinate, size, MD5) of each tile that passes `filter`, in `order`. Stores that keep
    /// verified hashes answer without reading tile bytes; others hash as they read.
    /// - Throws: as `tiles(matching:)`.
    func index(matching filter: TileFilter) throws -> any TileIndexCursor

    /// The cheapest index the store can give, in `order`: coordinates and sizes, with hashes
    /// where the store keeps verified ones and modification times where it keeps them per tile.
    /// An entry without a hash promises that `tile(at:)` is cheap for that store. The default
    /// is `index(matching:)`.
    func listing(matching filter: TileFilter) throws -> any TileIndexCursor

    /// What reading this store costs (cheap lookups, a listing that knows content, remote
    /// reads, a cheap summary); the defaults of `TileReaderTraits()` unless the reader says.
    var traits: TileReaderTraits { get }

    /// The tiles and bytes `tiles(matching:)` would give, found without reading the tiles (a
    /// PMTiles' directories, an MBTiles count), counting at most `limit + 1` tiles; nil when the
    /// store cannot say without reading them (the default).
    /// - Throws: `TileStoreError` when the store cannot be read, or is damaged.
    func amount(matching filter: TileFilter, upTo limit: Int) throws -> TileAmount?

    /// The optional roles this reader plays (`.none` by default): rereading by column, stored
    /// hashes, joinable stores, kept downloads, consistent reads, integrity checks, hints for
    /// merges.
    var roles: TileReaderRoles { get }

    /// Counts, sizes and extents per zoom, reading as little as the store allows.
    /// - Parameter countingBytes: false when the byte counts are not needed: they are then 0
    ///   where finding them costs a read of every tile (MBTiles) or a `stat` of every file (folders).
    /// - Throws: `TileStoreError` when the store cannot be read.
    func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary
}

extension TileReader {
    public func tiles(matching filter: TileFilter, preferring preferred: TileOrder) throws -> any TileCursor {
        try tiles(matching: filter)
    }

    public var traits: TileReaderTraits { TileReaderTraits() }
    public var roles: TileReaderRoles { .none }

    /// `traits.hasCheapRandomAccess`.
    public var hasCheapRandomAccess: Bool { traits.hasCheapRandomAccess }
    /// `traits.listingKnowsContent`.
    public var listingKnowsContent: Bool { traits.listingKnowsContent }
    /// `traits.isRemote`.
    public var isRemote: Bool { traits.isRemote }
    /// `traits.hasCheapSummary`.
    public var hasCheapSummary: Bool { traits.hasCheapSummary }

    /// What the reader chose by itself that a user should know (the layout it found for a
    /// tree, what a tile server answered), one line each; none for most kinds.
    public var notes: [String] { roles.inspection?.readerNotes ?? [] }

    /// True when every tile read is a request of its own (a tile server, which keeps its
    /// downloads): runs then refuse more than `TileAmountLimits.maxRequestedTiles` tiles.
    public var requestsEachTile: Bool { roles.downloadKeeping != nil }

    /// Facts of the store's own format for `info` (a PMTiles header's fields), as label and
    /// value, in the order shown; none for most kinds.
    public var storeDetails: [(label: String, value: String)] { roles.inspection?.details ?? [] }

    /// martin's `agg_tiles_hash` over every tile: the reader's own where it has one (an
    /// MBTiles), else streamed in (zoom, column, TMS row) order, sorted on disk first when the
    /// reader streams in another (`AggregateHashCalculator`).
    /// - Throws: `TileStoreError` when the store cannot be read.
    public func aggregateHash() throws -> ContentHash {
        if let own = roles.aggregateHashing { return try own.aggregateHash() }
        return try AggregateHashCalculator.compute(self)
    }

    public func amount(matching filter: TileFilter, upTo limit: Int) throws -> TileAmount? { nil }

    /// The store's UTFGrids within `filter` (MBTiles `grids` and `grid_data`, `.grid.json` files
    /// beside a tree's tiles); nil when the store keeps none.
    /// - Throws: `TileStoreError` when the store cannot be read.
    public func grids(matching filter: TileFilter) throws -> (any UTFGridCursor)? {
        try roles.grids?.grids(matching: filter) ?? nil
    }

    /// The compression the store declares for its tiles: a PMTiles header's, else the
    /// metadata's `compression` key; nil when it declares none. Brotli, which has no magic
    /// bytes, is known only so.
    public func declaredTileCompression() throws -> TileCompression? {
        if let declaring = roles.compressionDeclaration { return try declaring.declaredTileCompression() }
        return try metadata()["compression"].flatMap { TileCompression(rawValue: $0.lowercased()) }
    }


    /// Lets long reads stop early: `isCancelled` is polled inside long store operations (an
    /// SQLite query), which then throw `TileStoreError` of kind `.interrupted`. Readers without
    /// the role return between tiles, where callers poll themselves.
    public func setCancellation(_ isCancelled: @escaping @Sendable () -> Bool) {
        roles.cancellation?.setCancellation(isCancelled)
    }

    /// Counts, sizes and extents per zoom, byte counts included.
    /// - Throws: `TileStoreError` when the store cannot be read.
    public func summary(matching filter: TileFilter) throws -> TileSetSummary {
        try summary(matching: filter, countingBytes: true)
    }

    public func index(matching filter: TileFilter) throws -> any TileIndexCursor {
        HashingIndexCursor(tiles: try tiles(matching: filter))
    }

    public func listing(matching filter: TileFilter) throws -> any TileIndexCursor {
        try index(matching: filter)
    }
}
