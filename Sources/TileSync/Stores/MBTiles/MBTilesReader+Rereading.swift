import Foundation

/// Column rereads for a PMTiles writer (`TileColumnRereading`): one indexed range query per
/// column, the bytes handed over in place; SQLite reads a row's blob only when it is asked for
/// (the table row is looked up lazily), so unwanted tiles cost an index entry.
extension MBTilesReader: TileColumnRereading {
    /// Offered when a coordinate holds one tile (a unique index): a reread finds exactly it.
    public var roles: TileReaderRoles {
        TileReaderRoles(rereadSource: rereadsExactly ? TileRereadSource(rereader: self) : nil, storedHashes: storedHashes == nil ? nil : self,
                        consistentReads: self, integrity: self, mergeStreaming: self, inspection: self,
                        cancellation: self, aggregateHashing: self, grids: self)
    }

    func rereadColumn(z: Int, x: Int, rows: ClosedRange<Int>, wanted: (_ y: Int) -> Bool,
                      _ body: (_ y: Int, _ bytes: UnsafeRawBufferPointer) throws -> Void) throws {
        let flip = (1 << z) - 1
        do {
            let statement: SQLiteStatement
            if let columnQuery {
                statement = columnQuery
            } else {
                statement = try connection.prepare(
                    "SELECT tile_row, tile_data FROM \(catalog.tileSource) "
                        + "WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row BETWEEN ?3 AND ?4",
                    persistent: true)
                columnQuery = statement
            }
            defer { statement.reset() }
            try statement.bind(z, at: 1)
            try statement.bind(x, at: 2)
            try statement.bind(flip - rows.upperBound, at: 3)
            try statement.bind(flip - rows.lowerBound, at: 4)
            while try statement.step() {
                guard statement.isInteger(at: 0) else { continue }
                let tmsRow = statement.int(at: 0)
                guard (0...flip).contains(tmsRow), wanted(flip - tmsRow) else { continue }
                try statement.withBlob(at: 1) { bytes in try body(flip - tmsRow, bytes) }
            }
        } catch let error as SQLiteError {
            throw readError(error, item: "column \(z)/\(x)")
        }
    }

    /// A second reader of the file inside a read transaction of its own, for another thread:
    /// only while this reader holds one and the file has a rollback journal, whose writers cannot
    /// commit while any reader holds its shared lock, so both see the same version. In WAL mode
    /// a new reader may see later commits, so there is none; nor when the path now names another
    /// file (one renamed over it: inode, size and time must match those this reader opened), a
    /// writer waits to commit (the new shared lock is refused), or the file cannot be opened again.
    func companionRereader() -> (any TileColumnRereading)? {
        guard holdsReadTransaction, let openedStamp,
              let mode = try? connection.rows("PRAGMA journal_mode").first?.first ?? nil, mode.lowercased() != "wal",
              let companion = try? MBTilesReader(location: location, recovering: false, busyTimeoutMilliseconds: 50),
              companion.openedStamp == openedStamp else { return nil }
        do {
            try companion.beginReadTransaction()
        } catch {
            return nil
        }
        return companion
    }

    /// True when the table that holds the coordinates has a unique index (or primary key) on
    /// them, and, for the normalized schema, `images` one on `tile_id`.
    static func hasUniqueCoordinates(connection: SQLiteConnection, schema: MBTilesSchema) -> Bool {
        let coordinates: Set<String> = ["zoom_level", "tile_column", "tile_row"]
        let unique = hasUniqueIndex(connection: connection, table: coordinateTable(of: schema), within: coordinates)
        return schema == .normalized ? unique && hasUniqueIndex(connection: connection, table: "images", within: ["tile_id"]) : unique
    }

    /// The table whose rows hold the coordinates in a schema.
    private static func coordinateTable(of schema: MBTilesSchema) -> String {
        switch schema {
        case .flat: "tiles"
        case .flatWithHash: "tiles_with_hash"
        case .normalized: "map"
        }
    }

    /// True when the columns that hold the coordinates are declared with INTEGER or NUMERIC
    /// affinity, where SQLite stores every whole number as an INTEGER (never `5.0`, never `'5'`).
    static func keepsCoordinatesAsIntegers(connection: SQLiteConnection, schema: MBTilesSchema) -> Bool {
        guard let columns = try? connection.rows("PRAGMA table_info(\"\(coordinateTable(of: schema))\")") else { return false }
        var declared: [String: String] = [:]
        for column in columns where column.count >= 3 {
            if let name = column[1] { declared[name.lowercased()] = (column[2] ?? "").uppercased() }
        }
        return ["zoom_level", "tile_column", "tile_row"].allSatisfy { name in
            guard let type = declared[name] else { return false }
            if type.contains("INT") { return true }
            let other = ["CHAR", "CLOB", "TEXT", "BLOB", "REAL", "FLOA", "DOUB"]
            return !type.isEmpty && !other.contains { type.contains($0) }
        }
    }

    /// True when `table` has a complete (not partial) unique index whose columns all lie in `columns`.
    private static func hasUniqueIndex(connection: SQLiteConnection, table: String, within columns: Set<String>) -> Bool {
        guard let indexes = try? connection.rows("PRAGMA index_list(\"\(table)\")") else { return false }
        return indexes.contains { index in
            guard index.count >= 5, index[2] == "1", index[4] == "0", let name = index[1] else { return false }
            let escaped = name.replacingOccurrences(of: "\"", with: "\"\"")
            guard let names = try? connection.rows("PRAGMA index_info(\"\(escaped)\")"), !names.isEmpty else { return false }
            return names.allSatisfy { row in row.count >= 3 && row[2].map { columns.contains($0.lowercased()) } == true }
        }
    }
}
