/// What a run refuses before its first write: more tiles than `maxTiles` from a source that can
/// count them cheaply, or more bytes than the destination's file system has free.
public struct TileAmountLimits: Sendable, Equatable {
    /// The default `maxTiles`: 50 million, more than a country at zoom 16 and a day's work on a
    /// laptop.
    public static let defaultMaxTiles = 50_000_000

    /// The default `maxRequestedTiles`: 100,000 requests, a city to zoom 17, and more than a
    /// public tile server's usage policy allows in one go.
    public static let defaultMaxRequestedTiles = 100_000

    /// Tiles a run may read from one source at most (`--max-tiles`).
    public var maxTiles = defaultMaxTiles
    /// Tiles a run may ask a tile server for, one request each (`--max-tiles` sets it too).
    public var maxRequestedTiles = defaultMaxRequestedTiles
    /// Refuse a run whose estimated size is more than the destination's free space
    /// (false: `--no-space-check`).
    public var checksFreeSpace = true

    /// The defaults: 50 million tiles, free space checked.
    public init() {}
}
