/// One line of a sync plan.
public struct SyncPlanEntry: Sendable, Equatable {
    public let action: SyncAction
    public let coordinate: TileCoordinate
    /// Bytes to write (add, replace) or to remove (delete); the tile's size when unchanged.
    public let size: Int
}
