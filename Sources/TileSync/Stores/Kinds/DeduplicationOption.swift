/// `dedup`: store each distinct blob once (hard links in folders and tars, the normalized
/// schema in MBTiles).
public enum DeduplicationOption: TileStoreOptionKey {
    public typealias Value = Bool
    public static let name = "dedup"
}

extension TileStoreOptions {
    /// Store each distinct blob once, the way the kind can (`DeduplicationOption`).
    public var deduplicate: Bool? {
        get { self[DeduplicationOption.self] }
        set { self[DeduplicationOption.self] = newValue }
    }
}

extension DeduplicationOption {
    /// `--dedup`, offered for a store a conversion creates.
    public static let commandLineOption = TileStoreCommandLineOption(
        name: name, placeholder: nil,
        help: "Store each distinct blob once: hard links in a folder or tar,\nthe normalized schema in an MBTiles (a PMTiles always does).",
        uses: [.create], recipients: .storeWritten) { _, options throws(TileStoreOptionValueError) in
        options.deduplicate = true
    }
}
