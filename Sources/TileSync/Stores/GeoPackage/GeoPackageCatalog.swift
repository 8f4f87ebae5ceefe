/// What a GeoPackage file holds, read once when it opens: its `application_id`, whether the
/// tables a tile pyramid needs exist, and its tile tables (`gpkg_contents` rows of data type
/// `tiles` or `vector-tiles`).
struct GeoPackageCatalog: Sendable {
    /// `PRAGMA application_id`: `GPKG` (0x47504B47) since GeoPackage 1.2, `GP10`/`GP11` before.
    let applicationID: Int
    /// `PRAGMA user_version` (10300 for GeoPackage 1.3).
    let userVersion: Int
    /// The tile tables, in `gpkg_contents` order of name.
    let tileTables: [GeoPackageContentsRow]
    /// Every table and view of the file, lowercased.
    let objectNames: Set<String>

    /// The application ids of GeoPackage files: `GPKG`, and `GP10`, `GP11` of versions 1.0 and 1.1.
    static let applicationIDs: Set<Int> = [0x4750_4B47, 0x4750_3130, 0x4750_3131]
    /// The `application_id` written.
    static let writtenApplicationID = 0x4750_4B47
    /// The `user_version` written: GeoPackage 1.3.
    static let writtenUserVersion = 10300
    /// The tables every GeoPackage with tiles has.
    static let requiredTables = ["gpkg_spatial_ref_sys", "gpkg_contents", "gpkg_tile_matrix_set", "gpkg_tile_matrix"]

    /// Reads the catalog.
    /// - Throws: `.notATileStore` for an SQLite file that is not a GeoPackage or lacks a required
    ///   table, or an SQLite failure.
    static func read(connection: SQLiteConnection, store: String) throws -> GeoPackageCatalog {
        func pragma(_ name: String) throws -> Int {
            Int((try connection.rows("PRAGMA \(name)").first?.first ?? nil) ?? "0") ?? 0
        }
        let applicationID = try pragma("application_id"), userVersion = try pragma("user_version")
        let names = Set(try connection.rows("SELECT lower(name) FROM sqlite_master WHERE type IN ('table', 'view')").compactMap { $0.first ?? nil })
        let missing = requiredTables.filter { !names.contains($0) }
        guard missing.count < requiredTables.count || applicationIDs.contains(applicationID) else {
            throw TileStoreError(.notATileStore, store: store, message: "an SQLite file with no GeoPackage tables, not a GeoPackage")
        }
        guard missing.isEmpty else {
            throw TileStoreError(.notATileStore, store: store,
                                 message: "a GeoPackage without the table\(missing.count == 1 ? "" : "s") a tile pyramid needs: \(missing.joined(separator: ", "))")
        }
        let types = GeoPackageContentsRow.tileDataTypes.map { "'\($0)'" }.joined(separator: ", ")
        let statement = try connection.prepare("""
            SELECT table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id \
            FROM gpkg_contents WHERE lower(data_type) IN (\(types)) ORDER BY table_name
            """)
        var tables: [GeoPackageContentsRow] = []
        while try statement.step() {
            guard let table = statement.text(at: 0) else { continue }
            let hasBounds = (4..<8).allSatisfy { statement.isNumber(at: Int32($0)) }
            tables.append(GeoPackageContentsRow(
                table: table, dataType: statement.text(at: 1)?.lowercased() ?? "tiles", identifier: statement.text(at: 2),
                description: statement.text(at: 3),
                bounds: hasBounds ? (statement.double(at: 4), statement.double(at: 5), statement.double(at: 6), statement.double(at: 7)) : nil,
                srsID: statement.isInteger(at: 8) ? statement.int(at: 8) : nil))
        }
        return GeoPackageCatalog(applicationID: applicationID, userVersion: userVersion, tileTables: tables, objectNames: names)
    }

    /// The tile table a location names, or the only one.
    /// - Throws: `.notATileStore` naming the tile tables there are, when the name matches none
    ///   or none is named and there is not exactly one.
    func table(named name: String?, store: String) throws(TileStoreError) -> GeoPackageContentsRow {
        let names = tileTables.map { GeoPackageAddress.quoted($0.table) }.joined(separator: ", ")
        if let name {
            if let found = tileTables.first(where: { $0.table == name }) ?? tileTables.first(where: { $0.table.lowercased() == name.lowercased() }) {
                return found
            }
            throw TileStoreError(.notATileStore, store: store, item: GeoPackageAddress.describe(name),
                                 message: tileTables.isEmpty ? "is not a tile table: the GeoPackage has none" : "is not a tile table; its tile tables: \(names)")
        }
        guard tileTables.count == 1, let only = tileTables.first else {
            throw TileStoreError(.notATileStore, store: store,
                                 message: tileTables.isEmpty ? "a GeoPackage with no tile table" : "a GeoPackage with \(tileTables.count) tile tables (\(names))",
                                 hint: tileTables.isEmpty ? nil : "name one: FILE.gpkg#TABLE")
        }
        return only
    }
}
