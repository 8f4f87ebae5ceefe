/// What reading a store costs, as its reader knows it: the facts the engines weigh when they
/// choose between a lookup and a stream, a listing and a read of every tile. Fixed for the
/// reader's life.
public struct TileReaderTraits: Sendable, Equatable {
    /// True when `tile(at:)` costs a lookup, not a scan (false for tar archives).
    public var hasCheapRandomAccess: Bool
    /// True when `listing` entries carry a hash or a per-tile modification time, so that they
    /// can tell changed tiles from unchanged ones without reading them.
    public var listingKnowsContent: Bool
    /// True when reading tiles costs network requests (an `s3://` prefix, a tile server, a
    /// PMTiles archive over HTTP): `info` then skips what would download every tile.
    public var isRemote: Bool
    /// True when `summary(matching:countingBytes:)` without bytes reads an index, not the tiles
    /// (an MBTiles, a PMTiles), so a converter that shows progress asks for it even when the
    /// metadata has what it needs.
    public var hasCheapSummary: Bool

    /// The defaults are those of a local store with an index: cheap lookups, a listing that
    /// knows content, nothing remote, a summary that reads every tile.
    public init(hasCheapRandomAccess: Bool = true, listingKnowsContent: Bool = true, isRemote: Bool = false,
                hasCheapSummary: Bool = false) {
        self.hasCheapRandomAccess = hasCheapRandomAccess
        self.listingKnowsContent = listingKnowsContent
        self.isRemote = isRemote
        self.hasCheapSummary = hasCheapSummary
    }
}
