/// What every writer is told besides its kind's own options.
public struct TileWriterSettings: Sendable {
    /// Replace an existing destination when the writer finishes (`--force`).
    public var overwrite = false
    /// Give each stored tile the `modificationTime` it was read with, where the store keeps one
    /// per tile (folders), as `rsync -a` does.
    public var preservesModificationTimes = false
    /// Polled by writers whose `finish()` is long (a PMTiles lays out its whole archive there):
    /// true makes it stop with `.interrupted`, leaving the destination as it was.
    public var isCancelled: @Sendable () -> Bool = { false }
    /// The part of a sharded run this writer is (`--shard`): other parts write into the same
    /// store at the same time, so a shared store (a bucket prefix) that holds objects is no
    /// reason to refuse, and an abort deletes nothing.
    public var shard: TileShard?

    /// Defaults: refuse an existing destination, new modification times, never cancelled.
    public init(overwrite: Bool = false, preservesModificationTimes: Bool = false,
                isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.overwrite = overwrite
        self.preservesModificationTimes = preservesModificationTimes
        self.isCancelled = isCancelled
    }
}
