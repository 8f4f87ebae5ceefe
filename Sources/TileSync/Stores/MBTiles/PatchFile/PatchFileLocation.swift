/// Where a patch file is, as a store location: a patch in martin's diff format is an MBTiles
/// file, so it is the same store as an MBTiles at that path (for the same-file checks).
public enum PatchFileLocation {
    /// The location of the patch file at `path`.
    public static func at(_ path: String) -> TileStoreLocation {
        TileStoreLocation(kind: MBTilesStoreKind(), address: path)
    }
}
