/// Whole stores a reader reads as one (a merge without filters), which a writer of their kind
/// may join by copying their stored bytes instead of taking the tiles one by one
/// (`TileWriterAbilities.joinsStores`).
struct JoinableStores: Sendable {
    /// The stores, in the order given.
    public let parts: [TileStoreLocation]
    /// Told, after a join, how many tiles each part gave (in the parts' order).
    let joined: @Sendable ([Int]) -> Void
}

/// What a writer that joins whole stores will write: the tiles each part gives (in the parts'
/// order) and the bytes of all its tiles (a repeated blob counted each time).
struct StoreJoinPlan: Sendable {
    public let tilesPerPart: [Int]
    public let tileBytes: Int
}
