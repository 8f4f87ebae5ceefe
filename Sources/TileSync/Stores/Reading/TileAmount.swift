/// How many tiles a read of a store would give, and about how many bytes, found without reading
/// the tiles: what a run checks against its limits before its first write.
public struct TileAmount: Sendable, Equatable {
    /// Tiles counted; with `isLowerBound`, the store holds more (counting stopped at a limit).
    public var tiles: Int
    /// Bytes of those tiles, exact or estimated from a sample (saturates at `Int.max`).
    public var bytes: Int
    /// At most this many bytes are distinct (a PMTiles tile data section), when the store knows.
    public var distinctBytes: Int?
    /// The count stopped at the limit it was asked for.
    public var isLowerBound: Bool

    /// An amount.
    public init(tiles: Int, bytes: Int, distinctBytes: Int? = nil, isLowerBound: Bool = false) {
        self.tiles = tiles
        self.bytes = bytes
        self.distinctBytes = distinctBytes
        self.isLowerBound = isLowerBound
    }
}
