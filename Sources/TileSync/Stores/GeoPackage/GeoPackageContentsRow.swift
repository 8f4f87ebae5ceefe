/// A tile table's row in `gpkg_contents`.
struct GeoPackageContentsRow: Sendable {
    /// `table_name`.
    let table: String
    /// `data_type`: `tiles`, or `vector-tiles` (the OGC vector tiles extension).
    let dataType: String
    /// `identifier`, a human name.
    let identifier: String?
    /// `description`.
    let description: String?
    /// `min_x`, `min_y`, `max_x`, `max_y` in the row's SRS, when all four are given.
    let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    /// `srs_id`.
    let srsID: Int?

    /// The `data_type` values of tile pyramids: raster `tiles` and OGC `vector-tiles`.
    static let tileDataTypes = ["tiles", "vector-tiles"]
}
