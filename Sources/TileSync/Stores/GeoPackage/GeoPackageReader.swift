import Foundation

/// Reads one tile table of a GeoPackage (`file.gpkg#table`, or the file's only tile table):
/// raster `tiles` or OGC `vector-tiles`, rows placed on XYZ through the table's tile matrices
/// (`GeoPackageTileGrid`). Opening reads the catalog and the matrices, never the tiles; tiles
/// stream in (z, x, y) order through the table's unique index.
///
/// Errors: `.notFound`, `.notATileStore` (not a GeoPackage, no such tile table, several and none
/// named), `.unsupported` (a matrix set off the web quad tree), `.corrupt`, `.invalidTile` (a
/// row outside its matrix, NULL or empty tile data), each naming the table and row.
final class GeoPackageReader: TileReader, ConsistentReading, IntegrityChecking, StoreInspection, CancellableReading {
    /// The store as the user named it.
    let location: TileStoreLocation
    /// The file and table.
    let address: GeoPackageAddress
    /// The table's `gpkg_contents` row.
    let contents: GeoPackageContentsRow
    /// Where each zoom's tiles sit.
    let grid: GeoPackageTileGrid
    let order: TileOrder
    let connection: SQLiteConnection
    let catalog: GeoPackageCatalog
    private var lookup: SQLiteStatement?
    private var holdsReadTransaction = false

    /// Opens the file read-only and finds the table.
    /// - Throws: `TileStoreError` as the type describes.
    init(location: TileStoreLocation) throws(TileStoreError) {
        self.location = location
        address = GeoPackageAddress(location.address)
        let path = address.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TileStoreError(.notFound, store: location.address, message: "no such file")
        }
        do {
            connection = try SQLiteConnection(path: path, mode: .readOnly)
            try connection.execute("PRAGMA cache_size = -512")
            catalog = try GeoPackageCatalog.read(connection: connection, store: location.address)
        } catch let error as SQLiteError {
            throw error.openingError(store: location.address)
        } catch let error as TileStoreError {
            throw error
        } catch {
            throw TileStoreError(wrapping: error, store: location.address)
        }
        contents = try catalog.table(named: address.table, store: location.address)
        grid = try GeoPackageTileGrid.load(connection: connection, table: contents.table, store: location.address)
        try Self.checkColumns(connection: connection, table: contents.table, store: location.address)
        order = grid.levelsFollowZooms && Self.indexGivesOrder(connection: connection, table: contents.table) ? .zoomColumnRow : .unordered
    }

    deinit {
        if holdsReadTransaction { try? connection.execute("COMMIT") }
    }

    var quotedTable: String { GeoPackageAddress.quoted(contents.table) }

    var schemaDescription: String { "\(contents.dataType) table \(GeoPackageAddress.quoted(contents.table))" }

    var traits: TileReaderTraits { TileReaderTraits(hasCheapSummary: true) }

    var roles: TileReaderRoles {
        TileReaderRoles(consistentReads: self, integrity: self, inspection: self, cancellation: self)
    }

    func metadata() throws -> TileMetadata {
        do {
            if let stored = try GeoPackageMetadata.stored(table: contents.table, connection: connection, catalog: catalog, store: location.address) {
                return stored
            }
            return try GeoPackageDerivedMetadata.read(self)
        } catch let error as SQLiteError {
            throw readError(error, item: "metadata of \(GeoPackageAddress.describe(contents.table))")
        }
    }

    func tiles(matching filter: TileFilter) throws -> any TileCursor {
        try tiles(matching: filter, preferring: order)
    }

    /// In (zoom, column, TMS row) order when a writer prefers it (an MBTiles): the index gives
    /// zoom and column, and SQLite sorts the rows of one column at a time.
    func tiles(matching filter: TileFilter, preferring preferred: TileOrder) throws -> any TileCursor {
        var sql = "SELECT zoom_level, tile_column, tile_row, tile_data FROM \(quotedTable)" + grid.whereClause(filter)
        if order == .zoomColumnRow { sql += " ORDER BY zoom_level, tile_column, tile_row" + (preferred == .zoomColumnTMSRow ? " DESC" : "") }
        do {
            return GeoPackageCursor(statement: try connection.prepare(sql), reader: self, filter: filter)
        } catch {
            throw readError(error, item: nil)
        }
    }

    /// Coordinates and sizes (`length()` reads no tile bytes); no hashes.
    func listing(matching filter: TileFilter) throws -> any TileIndexCursor {
        var sql = "SELECT zoom_level, tile_column, tile_row, length(tile_data), typeof(tile_data) FROM \(quotedTable)" + grid.whereClause(filter)
        if order == .zoomColumnRow { sql += " ORDER BY zoom_level, tile_column, tile_row" }
        do {
            return GeoPackageListingCursor(statement: try connection.prepare(sql), reader: self, filter: filter)
        } catch {
            throw readError(error, item: nil)
        }
    }

    func tile(at coordinate: TileCoordinate) throws -> Data? {
        guard let matrix = grid.matricesByZoom[coordinate.z], let cell = matrix.cell(of: coordinate) else { return nil }
        do {
            let statement: SQLiteStatement
            if let lookup {
                statement = lookup
            } else {
                statement = try connection.prepare(
                    "SELECT tile_data FROM \(quotedTable) WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3 LIMIT 1", persistent: true)
                lookup = statement
            }
            defer { statement.reset() }
            try statement.bind(matrix.zoomLevel, at: 1)
            try statement.bind(cell.column, at: 2)
            try statement.bind(cell.row, at: 3)
            guard try statement.step() else { return nil }
            return try validated(statement.blob(at: 0), coordinate: coordinate)
        } catch let error as SQLiteError {
            throw readError(error, item: "tile \(coordinate)")
        }
    }

    func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        var summary = TileSetSummary()
        let cursor = try listing(matching: filter)
        while let entry = try cursor.next() {
            summary.add(entry.coordinate, size: countingBytes ? entry.size : 0)
        }
        return summary
    }

    func amount(matching filter: TileFilter, upTo limit: Int) throws -> TileAmount? {
        let summary = try summary(matching: filter, countingBytes: true)
        return TileAmount(tiles: summary.tileCount, bytes: summary.byteCount)
    }

    func validated(_ data: Data?, coordinate: TileCoordinate) throws(TileStoreError) -> Data {
        guard let data, !data.isEmpty else {
            throw TileStoreError(.invalidTile, store: location.address, item: "tile \(coordinate) in \(GeoPackageAddress.describe(contents.table))",
                                 message: data == nil ? "tile_data is NULL" : "tile_data is empty (0 bytes)")
        }
        return data
    }

    func readError(_ error: SQLiteError, item: String?) -> TileStoreError {
        error.readingError(store: location.address, item: item)
    }

    func setCancellation(_ isCancelled: @escaping @Sendable () -> Bool) {
        connection.setCancellation(isCancelled)
    }

    func withConsistentReads<T>(_ body: () throws -> T) throws -> T {
        if holdsReadTransaction { return try body() }
        _ = try holdReads()
        defer { releaseHeldReads() }
        return try body()
    }

    func holdReads() throws -> Bool {
        guard !holdsReadTransaction else { return true }
        do {
            try connection.beginReadTransaction()
        } catch {
            throw readError(error, item: nil)
        }
        holdsReadTransaction = true
        return true
    }

    func readThroughMemoryMap(upTo bytes: Int) {
        connection.readThroughMemoryMap(upTo: bytes)
    }

    func releaseHeldReads() {
        guard holdsReadTransaction else { return }
        holdsReadTransaction = false
        try? connection.execute("COMMIT")
    }

    /// The tile table must have the spec's four columns (an `id` and more are allowed).
    private static func checkColumns(connection: SQLiteConnection, table: String, store: String) throws(TileStoreError) {
        let columns: Set<String>
        do {
            columns = Set(try connection.rows("PRAGMA table_info(\(GeoPackageAddress.quoted(table)))").compactMap { $0.count > 1 ? $0[1]?.lowercased() : nil })
        } catch {
            throw error.readingError(store: store, item: GeoPackageAddress.describe(table))
        }
        let missing = ["zoom_level", "tile_column", "tile_row", "tile_data"].filter { !columns.contains($0) }
        guard missing.isEmpty else {
            throw TileStoreError(.notATileStore, store: store, item: GeoPackageAddress.describe(table),
                                 message: columns.isEmpty ? "is listed in gpkg_contents but does not exist" : "lacks the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))")
        }
    }

    private static func indexGivesOrder(connection: SQLiteConnection, table: String) -> Bool {
        let sql = "EXPLAIN QUERY PLAN SELECT zoom_level, tile_column, tile_row, tile_data FROM \(GeoPackageAddress.quoted(table)) "
            + "ORDER BY zoom_level, tile_column, tile_row"
        guard let plan = try? connection.rows(sql) else { return false }
        return !plan.contains { row in row.contains { $0?.contains("TEMP B-TREE") == true } }
    }
}
