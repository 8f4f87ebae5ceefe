import Foundation

extension GeoPackageReader {
    /// The file's tile tables, the table read, its SRS and matrices, and the GeoPackage version.
    var details: [(label: String, value: String)] {
        let tables = catalog.tileTables.map { "\(GeoPackageAddress.quoted($0.table)) (\($0.dataType))" }.joined(separator: ", ")
        let levels = grid.matricesByLevel.values.sorted { $0.zoomLevel < $1.zoomLevel }
        let matrices = levels.map { "\($0.zoomLevel)->z\($0.z) \($0.matrixWidth)x\($0.matrixHeight)@\($0.tileWidth)px" }.joined(separator: ", ")
        return [("tile tables", tables), ("table", GeoPackageAddress.quoted(contents.table)), ("data type", contents.dataType),
                ("srs_id", String(grid.srsID)), ("tile matrices", matrices.isEmpty ? "none" : matrices),
                ("application_id", Self.fourCharacters(catalog.applicationID)), ("user_version", String(catalog.userVersion))]
    }

    /// The file's other contents (features, attributes, other tile tables): a conversion
    /// carries only the table read.
    func uncarriedContent() throws -> [UncarriedContent] {
        do throws(SQLiteError) {
            return try connection.rows("SELECT table_name, data_type FROM gpkg_contents WHERE table_name != '\(contents.table.replacingOccurrences(of: "'", with: "''"))' ORDER BY table_name")
                .compactMap { row in
                    guard let name = row[0] else { return nil }
                    let count = try? connection.rows("SELECT count(*) FROM \(GeoPackageAddress.quoted(name))").first?.first.flatMap { $0.flatMap { Int($0) } }
                    return UncarriedContent(item: "\(row[1] ?? "table") \(GeoPackageAddress.quoted(name))", rows: count ?? nil,
                                            reason: "a conversion carries one tile table of a GeoPackage")
                }
        } catch {
            throw readError(error, item: nil)
        }
    }

    /// SQLite's integrity and foreign key checks and the spec's requirements of a tile table:
    /// the GeoPackage application id, the required SRS rows, a matrix for every zoom level
    /// and every tile inside its matrix.
    func integrityProblems() throws -> [String] {
        do {
            var problems = try connection.rows("PRAGMA integrity_check(100)").compactMap { $0.first ?? nil }.filter { $0 != "ok" }
            problems += try connection.rows("PRAGMA foreign_key_check").prefix(100).map { row in
                "foreign key violation: \(row[0] ?? "?") row \(row[1] ?? "?") refers to a missing row of \(row[2] ?? "?")"
            }
            if !GeoPackageCatalog.applicationIDs.contains(catalog.applicationID) {
                problems.append("application_id is \(Self.fourCharacters(catalog.applicationID)), not GPKG")
            }
            let ids = Set(try connection.rows("SELECT srs_id FROM gpkg_spatial_ref_sys").compactMap { $0.first.flatMap { $0.flatMap { Int($0) } } })
            let missing = [-1, 0, 4326].filter { !ids.contains($0) }
            if !missing.isEmpty { problems.append("gpkg_spatial_ref_sys lacks the required srs_id \(missing.map(String.init).joined(separator: ", "))") }
            problems += try matrixProblems()
            return problems
        } catch let error as SQLiteError {
            throw readError(error, item: nil)
        }
    }

    private func matrixProblems() throws -> [String] {
        var problems: [String] = []
        let table = GeoPackageAddress.describe(contents.table)
        for row in try connection.rows("SELECT DISTINCT zoom_level FROM \(quotedTable)") {
            guard let text = row.first ?? nil, let level = Int(text) else {
                problems.append("\(table) has a zoom_level that is not an integer")
                continue
            }
            guard let matrix = grid.matricesByLevel[level] else {
                problems.append("\(table) zoom_level \(level) has no row in gpkg_tile_matrix")
                continue
            }
            let outside = try connection.rows("""
                SELECT count(*), min(tile_column), min(tile_row) FROM \(quotedTable) WHERE zoom_level = \(level) \
                AND (tile_column < 0 OR tile_column >= \(matrix.matrixWidth) OR tile_row < 0 OR tile_row >= \(matrix.matrixHeight))
                """)
            if let count = outside.first?.first.flatMap({ $0.flatMap { Int($0) } }), count > 0 {
                problems.append("\(table) zoom_level \(level): \(count) tile\(count == 1 ? "" : "s") outside the \(matrix.matrixWidth) x \(matrix.matrixHeight) matrix")
            }
        }
        return problems
    }

    /// An application id as its four ASCII characters (`GPKG`), else as a number.
    static func fourCharacters(_ id: Int) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: id >> (24 - 8 * $0)) }
        return bytes.allSatisfy({ (0x20...0x7E).contains($0) }) ? String(decoding: bytes, as: UTF8.self) : String(id)
    }
}
