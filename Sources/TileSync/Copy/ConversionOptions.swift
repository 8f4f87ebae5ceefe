/// How `TileConverter` copies tiles.
public struct ConversionOptions: Sendable {
    /// Which tiles to copy.
    public var filter: TileFilter = .all
    /// Layout of a folder or tar source (nil: from its metadata, else `{z}/{x}/{y}.{ext}`).
    public var sourceLayout: PathTemplate?
    /// Layout of a folder or tar destination.
    public var destinationLayout: PathTemplate = .xyz
    /// Table layout of an MBTiles destination (`normalized` stores each distinct blob once).
    public var mbtilesSchema: MBTilesSchema = .flat
    /// Store repeated blobs of a folder or tar destination once, as hard links.
    public var deduplicate = false
    /// A folder destination gives each file the modification time of its source file (folder
    /// sources), as `rsync -a` does; `sync` into a missing folder relies on it.
    public var preservesModificationTimes = false
    /// Replace an existing destination.
    public var overwrite = false
    /// Count invalid tiles and go on instead of stopping at the first.
    public var skipInvalid = false
    /// Polled between tiles; returning true stops the run, leaving the destination untouched.
    public var isCancelled: @Sendable () -> Bool = { false }

    /// Defaults: every tile, `{z}/{x}/{y}.{ext}`, flat MBTiles, no dedup, no overwrite.
    public init() {}
}
