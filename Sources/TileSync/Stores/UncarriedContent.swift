/// Something a store holds besides its tiles and metadata that no destination carries (an
/// MBTiles' UTFGrid tables and views, geocoder tables, tables of other tools): named in one
/// warning per item on every conversion and sync, and listed by `--json`.
public struct UncarriedContent: Sendable, Equatable, CustomStringConvertible {
    /// What it is, e.g. `table grid_utfgrid` or `view grids`.
    public let item: String
    /// Its rows, when counting them is cheap (tables; not views, which may expand to millions).
    public let rows: Int?

    /// An item and its row count.
    public init(item: String, rows: Int?) {
        self.item = item
        self.rows = rows
    }

    /// `table grid_utfgrid (1,234 rows)` or `view grids`.
    public var description: String {
        rows.map { "\(item) (\($0) \($0 == 1 ? "row" : "rows"))" } ?? item
    }

    /// The warning of a run from `source` into `destination`.
    static func warning(_ item: UncarriedContent, source: String, destination: String) -> String {
        "\(source): \(item) is not carried to \(destination) (TileSync copies tiles and metadata)"
    }
}
