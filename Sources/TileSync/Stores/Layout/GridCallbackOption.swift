/// `grid-callback`: the JSONP callback wrapped around the `.grid.json` UTFGrids a folder or tar
/// gets (`grid`, mb-util's default; empty for plain JSON).
enum GridCallbackOption: TileStoreOptions.Key {
    public typealias Value = String
    public static let name = "grid-callback"
    /// The callback trees get when none is given, mb-util's default `--grid_callback`.
    public static let defaultValue = "grid"

    /// True for a name a JavaScript page can call: letters, digits, `_`, `$` and `.`, not
    /// starting with a digit, or empty.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return true }
        return !(48...57).contains(first) && name.utf8.allSatisfy {
            (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == UInt8(ascii: "_")
                || $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: ".")
        }
    }
}

extension TileStoreOptions {
    /// The JSONP callback of a folder's or tar's `.grid.json` files (`GridCallbackOption`); nil: `grid`.
    public var gridCallback: String? {
        get { self[GridCallbackOption.self] }
        set { self[GridCallbackOption.self] = newValue }
    }
}

extension GridCallbackOption {
    /// `--grid-callback`, offered for a folder or tar a command writes.
    public static let commandLineOption = TileStoreOptions.CommandLineOption(
        name: name, placeholder: "name",
        help: "JSONP callback around the .grid.json UTFGrids of a folder or tar destination\n(default grid, as mb-util; '' writes plain JSON).",
        uses: [.create, .update], recipients: .storeWritten) { value, options throws(TileStoreOptions.ValueError) in
        options.gridCallback = value
    }
}
