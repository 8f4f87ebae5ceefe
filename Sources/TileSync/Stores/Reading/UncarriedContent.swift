/// Something a store holds besides its tiles and metadata that no destination carries (an
/// MBTiles' UTFGrid tables and views, geocoder tables, tables of other tools): named in one
/// warning per item on every conversion and sync, and listed by `--json`.
public struct UncarriedContent: Sendable, Equatable, CustomStringConvertible {
    /// What it is, e.g. `table grid_utfgrid` or `view grids`.
    public let item: String
    /// Its rows, when counting them is cheap (tables; not views, which may expand to millions).
    public let rows: Int?
    /// What `rows` counts: `row`, or `grid` for UTFGrids.
    public let unit: String
    /// Why it stays behind.
    public let reason: String

    /// An item and its row count.
    public init(item: String, rows: Int?, unit: String = "row", reason: String = "TileSync copies tiles, UTFGrids and metadata") {
        self.item = item
        self.rows = rows
        self.unit = unit
        self.reason = reason
    }

    /// The UTFGrids of a source, `count` of them, that a destination of `kind` cannot keep.
    static func grids(_ count: Int, destinationKind kind: String) -> UncarriedContent {
        grids(count, reason: "a \(kind) keeps no UTFGrids")
    }

    /// The UTFGrids of a source, `count` of them, that the destination does not take, and why.
    static func grids(_ count: Int, reason: String) -> UncarriedContent {
        UncarriedContent(item: "UTFGrids", rows: count, unit: "grid", reason: reason)
    }

    /// `table geocoder_data (1,234 rows)`, `view grids` or `UTFGrids (20 grids)`.
    public var description: String {
        rows.map { "\(item) (\($0) \(unit)\($0 == 1 ? "" : "s"))" } ?? item
    }

    /// The warning of a run from `source` into `destination`.
    static func warning(_ item: UncarriedContent, source: String, destination: String) -> String {
        "\(source): \(item) is not carried to \(destination) (\(item.reason))"
    }
}
