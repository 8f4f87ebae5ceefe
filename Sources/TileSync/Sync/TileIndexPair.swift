/// What two stores hold at one coordinate: an entry on either side, or both.
public struct TileIndexPair: Sendable {
    /// The coordinate (XYZ).
    public let coordinate: TileCoordinate
    /// The entry of the first store (the source), or nil.
    public let source: TileIndexEntry?
    /// The entry of the second store (the destination), or nil.
    public let destination: TileIndexEntry?

    /// Both sides hold the same bytes.
    public var isSame: Bool { source?.hash == destination?.hash && source?.size == destination?.size && source != nil }
}
