/// The version of TileSync, as the tool prints it and as it names itself to servers.
public enum TileSyncVersion {
    /// `0.1.0`.
    public static let current = "0.1.0"
}
