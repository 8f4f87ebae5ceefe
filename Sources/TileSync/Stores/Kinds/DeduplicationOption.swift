extension TileStoreOptions {
    /// `dedup`: store each distinct blob once (hard links in folders and tars, the normalized
    /// schema in MBTiles).
    public enum Deduplication: TileStoreOptions.Key {
        public typealias Value = Bool
        public static let name = "dedup"
    }
}

extension TileStoreOptions {
    /// Store each distinct blob once, the way the kind can (`TileStoreOptions.Deduplication`).
    public var deduplicate: Bool? {
        get { self[TileStoreOptions.Deduplication.self] }
        set { self[TileStoreOptions.Deduplication.self] = newValue }
    }
}

extension TileStoreOptions.Deduplication {
    /// `--dedup`, offered for a store a conversion creates.
    public static let commandLineOption = TileStoreOptions.CommandLineOption(
        name: name, placeholder: nil,
        help: "Store each distinct blob once: hard links in a folder or tar,\nthe normalized schema in an MBTiles (a PMTiles always does).",
        uses: [.create], recipients: .storeWritten) { _, options throws(TileStoreOptions.ValueError) in
        options.deduplicate = true
    }
}
