import Foundation

/// Reads MBTiles files of every schema in the wild: flat `tiles` table, flat-with-hash
/// (`tiles_with_hash`), normalized (`map` + `images`, with or without a `tiles` view), with or
/// without the unique index or a `metadata` table.
///
/// Opening reads only the schema catalog, never the tiles. A file left with a hot journal by an
/// interrupted writer is rolled back first when it is writable (as any SQLite writer would). `tile_row` is TMS and is flipped to
/// XYZ here; nothing above this adapter sees TMS rows. Tiles stream in the index's native order
/// (zoom, column, TMS row) when an index provides it, else in table order.
///
/// Errors: `.notFound`, `.notATileStore` (not SQLite, no tiles table, wrong columns), `.corrupt`
/// (malformed database), `.invalidTile` (coordinate out of range, non-integer coordinate, NULL or
/// empty tile data).
final class MBTilesReader: TileReader, StoredHashChecking, ConsistentReading, IntegrityChecking, MergeStreaming,
    StoreInspection, CancellableReading, AggregateHashing, GridReading {
    /// The MBTiles file.
    public let location: TileStoreLocation
    /// The table layout found.
    public let schema: MBTilesSchema
    /// Index order (zoom, column, TMS row) when an index gives it, else unordered.
    public let order: TileOrder
    let connection: SQLiteConnection
    let catalog: MBTilesCatalog
    private var lookup: SQLiteStatement?
    /// The prepared column query of `rereadColumn` (MBTilesReader+Rereading).
    var columnQuery: SQLiteStatement?
    /// True when every coordinate holds at most one tile (MBTilesReader+Rereading).
    lazy var rereadsExactly: Bool = Self.hasUniqueCoordinates(connection: connection, schema: schema)
    /// True when the coordinate columns keep whole numbers as INTEGERs (MBTilesReader+Rereading).
    lazy var keepsCoordinatesAsIntegers: Bool = Self.keepsCoordinatesAsIntegers(connection: connection, schema: schema)
    private lazy var verifiedHashSource: String? = detectVerifiedHashSource()
    private(set) var holdsReadTransaction = false
    /// The file as it was when the connection opened it (a companion must open the same one).
    let openedStamp: FileStamp?

    /// Opens an MBTiles file read-only (others may keep reading and writing it).
    /// - Throws: `TileStoreError` when the file is missing, not SQLite, or not MBTiles.
    public convenience init(location: TileStoreLocation) throws(TileStoreError) {
        try self.init(location: location, recovering: true, busyTimeoutMilliseconds: 5000)
    }

    /// SQLite's page cache of a reader, in KiB: the system caches the file, so this needs to
    /// hold little beyond the inner pages of the index a lookup descends (a merge of many
    /// stores streams each through a reader of its own, and memory grows with each cache).
    static let cacheKiB = 512

    /// SQLite's page cache, in pages, of a reader that streams the file once: the pages an
    /// index cursor and the table cursor it seeks through hold at once (root to leaf of each
    /// B-tree), none kept for later. Counted in pages, not bytes: with fewer pages than those
    /// paths every row would read its table's inner pages again.
    static let streamingCachePages = 16

    /// Opens the file; `recovering` rolls back a hot journal first, and a lock held by a writer
    /// is waited for up to `busyTimeoutMilliseconds`.
    init(location: TileStoreLocation, recovering: Bool, busyTimeoutMilliseconds: Int32) throws(TileStoreError) {
        self.location = location
        let path = location.address
        guard FileManager.default.fileExists(atPath: path) else {
            throw TileStoreError(.notFound, store: path, message: "no such file")
        }
        if recovering { MBTilesMaintenance.recover(path: path) }
        do {
            connection = try SQLiteConnection(path: path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            try connection.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
            openedStamp = FileStamp(path: path, followingLinks: true)
        } catch {
            throw MBTilesCatalog.openError(error, store: path)
        }
        catalog = try MBTilesCatalog(connection: connection, store: path)
        schema = catalog.schema
        order = Self.indexProvidesOrder(connection: connection, source: catalog.tileSource)
            ? .zoomColumnTMSRow : .unordered
    }

    deinit {
        if holdsReadTransaction { endReadTransaction() }
    }

    public var schemaDescription: String { schema.rawValue }

    public func willStreamOnce() {
        try? connection.execute("PRAGMA cache_size = \(Self.streamingCachePages)")
    }

    public func metadata() throws -> TileMetadata {
        guard catalog.hasMetadataTable else { return TileMetadata() }
        do {
            let rows = try connection.rows("SELECT name, value FROM metadata")
            return TileMetadata(rows.compactMap { row in row[0].map { TileMetadata.Entry(key: $0, value: row[1]) } })
        } catch {
            throw readError(error, item: "table metadata")
        }
    }

    public func tiles(matching filter: TileFilter) throws -> any TileCursor {
        try cursor(matching: filter, inIndexOrder: order == .zoomColumnTMSRow)
    }

    /// Tiles in PMTiles tile-ID order (`MBTilesTileIDCursor`) when the writer wants it and a
    /// unique index rules out repeats; else as `tiles(matching:)`.
    public func tiles(matching filter: TileFilter, preferring preferred: TileOrder) throws -> any TileCursor {
        if preferred == .tileID, rereadsExactly { return try MBTilesTileIDCursor(reader: self, filter: filter) }
        return try tiles(matching: filter)
    }

    private func cursor(matching filter: TileFilter, inIndexOrder: Bool) throws -> any TileCursor {
        do {
            let rows = try filteredRows("zoom_level, tile_column, tile_row, tile_data", from: catalog.tileSource, filter: filter,
                                        ordered: inIndexOrder)
            return MBTilesCursor(rows: rows, reader: self, filter: filter)
        } catch {
            throw readError(error, item: nil)
        }
    }

    /// The rows of `columns` from `source` that the filter may pass, in the index's order when
    /// `ordered` and the file has the index. With a tile list and the index, one seek per listed
    /// column run (`MBTilesListedRuns`): no row between listed tiles is read; otherwise the rows
    /// of `whereClause`.
    func filteredRows(_ columns: String, from source: String, filter: TileFilter, ordered: Bool) throws(SQLiteError) -> MBTilesRows {
        let select = "SELECT \(columns) FROM \(source)"
        if order == .zoomColumnTMSRow, let runs = MBTilesListedRuns(filter) {
            return MBTilesRows(try connection.prepare(select + MBTilesListedRuns.condition + (ordered ? " ORDER BY tile_row" : "")), runs: runs)
        }
        let sorted = ordered && order == .zoomColumnTMSRow ? " ORDER BY zoom_level, tile_column, tile_row" : ""
        return MBTilesRows(try connection.prepare(select + Self.whereClause(filter) + sorted))
    }

    /// The last row of the index in the filter's zooms (a bound: the rest of a spatial filter
    /// is left out, so that SQLite reads one index entry); nil without an index or a readable row.
    public func lastStreamedCoordinate(matching filter: TileFilter) -> TileCoordinate? {
        guard order == .zoomColumnTMSRow else { return nil }
        let zooms = " WHERE zoom_level BETWEEN \(filter.zooms.lowerBound) AND \(filter.zooms.upperBound)"
        let sql = "SELECT zoom_level, tile_column, tile_row FROM \(catalog.tileSource)\(filter.isEverything ? "" : zooms)"
            + " ORDER BY zoom_level DESC, tile_column DESC, tile_row DESC LIMIT 1"
        guard let row = try? connection.rows(sql).first, row.count == 3,
              let z = row[0].flatMap({ Int($0) }), let x = row[1].flatMap({ Int($0) }), let tmsY = row[2].flatMap({ Int($0) }) else {
            return nil
        }
        return try? TileCoordinate(z: z, x: x, tmsY: tmsY)
    }

    /// The coordinates from the tile index, each tile read when asked (`MBTilesLazyCursor`); nil
    /// without an index giving the order, or for a `tiles` view of unknown shape.
    func lazyTiles(matching filter: TileFilter) throws -> (any LazyTileCursor)? {
        guard order == .zoomColumnTMSRow, !catalog.tilesIsUnknownView else { return nil }
        let sorted = " ORDER BY zoom_level, tile_column, tile_row"
        let seek = "SELECT zoom_level, tile_column, tile_row, tile_data FROM \(catalog.tileSource)"
            + " WHERE (zoom_level, tile_column, tile_row) >= (?1, ?2, ?3)" + sorted
        do {
            guard !(try Self.planSorts(seek, connection: connection)) else { return nil }
            let listing = try filteredRows("zoom_level, tile_column, tile_row", from: catalog.tileSource, filter: filter, ordered: true)
            return MBTilesLazyCursor(listing: listing, tiles: try connection.prepare(seek), reader: self, filter: filter)
        } catch {
            throw readError(error, item: nil)
        }
    }

    public func tile(at coordinate: TileCoordinate) throws -> Data? {
        do {
            let statement: SQLiteStatement
            if let lookup {
                statement = lookup
            } else {
                statement = try connection.prepare(
                    "SELECT tile_data FROM \(catalog.tileSource) WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3 LIMIT 1",
                    persistent: true)
                lookup = statement
            }
            defer { statement.reset() }
            try statement.bindMBTilesCoordinate(coordinate)
            guard try statement.step() else { return nil }
            return try validatedData(statement.blob(at: 0), coordinate: coordinate)
        } catch let error as SQLiteError {
            throw readError(error, item: Self.describe(coordinate))
        }
    }

    /// Holds one read transaction (with its shared lock taken at once) while `body` runs, so
    /// every read sees the same version of the file; a writer's commit waits for it (up to the
    /// busy timeout). Nested calls share the outer transaction.
    public func withConsistentReads<T>(_ body: () throws -> T) throws -> T {
        if holdsReadTransaction { return try body() }
        try beginReadTransaction()
        defer { endReadTransaction() }
        return try body()
    }

    /// One read transaction for the lookups that follow, until `releaseHeldReads()`.
    public func holdReads() throws -> Bool {
        if !holdsReadTransaction { try beginReadTransaction() }
        return true
    }

    public func readThroughMemoryMap(upTo bytes: Int) {
        connection.readThroughMemoryMap(upTo: bytes)
    }

    public func releaseHeldReads() {
        if holdsReadTransaction { endReadTransaction() }
    }

    /// Starts a read transaction and takes its shared lock at once (a rollback journal's writer
    /// cannot commit until `endReadTransaction()`).
    func beginReadTransaction() throws(TileStoreError) {
        do {
            try connection.beginReadTransaction()
        } catch {
            throw readError(error, item: nil)
        }
        holdsReadTransaction = true
    }

    func endReadTransaction() {
        holdsReadTransaction = false
        try? connection.execute("COMMIT")
    }

    /// Tables (with row counts) and views besides the tile schema and `metadata`: UTFGrid
    /// (`grid_utfgrid`, `grid_key`, `keymap`, `grids`, `grid_data`), geocoder tables, others.
    /// Empty ones hold nothing to lose and are left out (a view is asked for its first row only).
    public func uncarriedContent() throws -> [UncarriedContent] {
        var known: Set<String> = ["metadata", "tiles", "tiles_with_hash", "map", "images"]
        if try gridDataExists() != nil { known.formUnion(Self.gridObjects) }
        do {
            let objects = try connection.rows("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")
            return try objects.compactMap { row -> UncarriedContent? in
                guard let type = row[0], let name = row[1], !known.contains(name.lowercased()), !name.lowercased().hasPrefix("sqlite_") else {
                    return nil
                }
                let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                guard type == "table" else {
                    return try connection.rows("SELECT 1 FROM \(quoted) LIMIT 1").isEmpty ? nil : UncarriedContent(item: "view \(name)", rows: nil)
                }
                let first: String?? = try connection.rows("SELECT count(*) FROM \(quoted)").first?.first
                let count = first.flatMap { $0 }.flatMap { Int($0) }
                return count == 0 ? nil : UncarriedContent(item: "table \(name)", rows: count)
            } + (catalog.hasMetadataTable ? try repeatedMetadataKeys() : [])
        } catch let error as SQLiteError {
            throw readError(error, item: nil)
        }
    }

    /// Metadata names with more than one row (a file without the unique index): every other
    /// store keeps one value per key, so only the last row's value is carried.
    private func repeatedMetadataKeys() throws(SQLiteError) -> [UncarriedContent] {
        try connection.rows("SELECT name, count(*) FROM metadata GROUP BY name HAVING count(*) > 1 ORDER BY name").compactMap { row in
            guard let name = row[0], let count = row[1].flatMap({ Int($0) }) else { return nil }
            return UncarriedContent(item: "metadata \(name)", rows: count,
                                    reason: "a key has one value in a store; the last row's is carried")
        }
    }

    /// The tables and views UTFGrids live in: mb-util's `grids` and `grid_data`, and the
    /// normalized schema's `grid_utfgrid`, `grid_key` and `keymap` behind views of those names.
    static let gridObjects: Set<String> = ["grids", "grid_data", "grid_utfgrid", "grid_key", "keymap"]

    /// Nil when there is no `grids` (zoom_level, tile_column, tile_row, grid) table or view, else
    /// whether `grid_data` (zoom_level, tile_column, tile_row, key_name, key_json) is beside it.
    private func gridDataExists() throws -> Bool? {
        func columns(_ name: String) throws -> Set<String> {
            Set(try connection.rows("PRAGMA table_info(\(name))").compactMap { $0.count > 1 ? $0[1]?.lowercased() : nil })
        }
        do {
            let grid: Set<String> = ["zoom_level", "tile_column", "tile_row", "grid"]
            guard grid.isSubset(of: try columns("grids")) else { return nil }
            let data: Set<String> = ["zoom_level", "tile_column", "tile_row", "key_name", "key_json"]
            return data.isSubset(of: try columns("grid_data"))
        } catch let error as SQLiteError {
            throw readError(error, item: "grids")
        }
    }

    /// The file's UTFGrids (`grids` with `grid_data`); nil when it has no `grids` table or view.
    public func grids(matching filter: TileFilter) throws -> (any UTFGridCursor)? {
        guard let hasData = try gridDataExists() else { return nil }
        do {
            let statement = try connection.prepare("SELECT zoom_level, tile_column, tile_row, grid FROM grids" + Self.whereClause(filter))
            let data = hasData
                ? try connection.prepare("SELECT key_name, key_json FROM grid_data WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3 ORDER BY key_name")
                : nil
            return MBTilesGridCursor(statement: statement, data: data, reader: self, filter: filter)
        } catch {
            throw readError(error, item: "grids")
        }
    }

    /// True when the file keeps MD5 hashes that a spot check of its first rows confirmed
    /// (`tile_hash` of flat-with-hash, or `tile_id` of normalized files that follow martin).
    public var hasVerifiedStoredHashes: Bool { verifiedHashSource != nil }

    /// Interrupts running SQLite statements once `isCancelled` returns true.
    public func setCancellation(_ isCancelled: @escaping @Sendable () -> Bool) {
        connection.setCancellation(isCancelled)
    }

    /// A listing that knows content only with verified stored hashes (a flat file's listing has
    /// sizes alone); a summary from the tile index without reading the table's rows.
    public var traits: TileReaderTraits {
        TileReaderTraits(listingKnowsContent: hasVerifiedStoredHashes, hasCheapSummary: true)
    }

    /// The index from stored hashes when they are verified, without reading tile bytes;
    /// otherwise by hashing every tile.
    public func index(matching filter: TileFilter) throws -> any TileIndexCursor {
        guard let source = verifiedHashSource else { return HashingIndexCursor(tiles: try tiles(matching: filter)) }
        do {
            let rows = try filteredRows("zoom_level, tile_column, tile_row, size, hash", from: source, filter: filter, ordered: true)
            return MBTilesIndexCursor(rows: rows, reader: self, filter: filter, computeMissingHashes: true)
        } catch {
            throw readError(error, item: nil)
        }
    }

    /// Coordinates and sizes from SQL (`length()` does not read blobs), with the stored hashes
    /// when verified; no tile bytes are read.
    public func listing(matching filter: TileFilter) throws -> any TileIndexCursor {
        try listing(matching: filter, ordered: true)
    }

    /// The listing in the table's own order (no walk of the tile index), for statistics.
    func unorderedListing(matching filter: TileFilter) throws -> (any TileIndexCursor)? {
        try listing(matching: filter, ordered: false)
    }

    private func listing(matching filter: TileFilter, ordered: Bool) throws -> any TileIndexCursor {
        let source = verifiedHashSource ?? """
            (SELECT zoom_level, tile_column, tile_row, length(tile_data) AS size, NULL AS hash FROM \(catalog.tileSource))
            """
        do {
            let rows = try filteredRows("zoom_level, tile_column, tile_row, size, hash", from: source, filter: filter, ordered: ordered)
            return MBTilesIndexCursor(rows: rows, reader: self, filter: filter, computeMissingHashes: false)
        } catch {
            throw readError(error, item: nil)
        }
    }

    /// martin's `agg_tiles_hash` over every tile, computed with an ordered query.
    /// - Throws: `TileStoreError` when the file cannot be read.
    public func aggregateHash() throws -> ContentHash {
        do {
            return try MBTilesAggregateHash.compute(connection, source: catalog.tileSource)
        } catch let error as SQLiteError {
            throw readError(error, item: nil)
        } catch {
            throw TileStoreError(wrapping: error, store: location.address)
        }
    }

    /// `PRAGMA integrity_check` lines other than `ok` (at most 100).
    public func integrityProblems() throws -> [String] {
        do {
            return try connection.rows("PRAGMA integrity_check(100)").compactMap { $0.first ?? nil }.filter { $0 != "ok" }
        } catch {
            throw readError(error, item: nil)
        }
    }

    /// `tile_hash` of flat-with-hash files; `tile_id` of normalized ones, checked only when a
    /// sample shows they are MD5s (TileMill's ids are not).
    var storedHashes: StoredTileHashes? {
        switch schema {
        case .flat: nil
        case .flatWithHash: StoredTileHashes(name: "tile_hash", areMD5s: true)
        case .normalized:
            hasVerifiedStoredHashes
                ? StoredTileHashes(name: "tile_id", areMD5s: true)
                : StoredTileHashes(name: "tile_id", areMD5s: false,
                                   note: "tile_id values are not MD5s of the tile bytes (TileMill-style ids); hashes are computed when needed")
        }
    }

    /// Walks the stored hashes (flat-with-hash `tile_hash`, normalized `tile_id` per image).
    func storedHashMismatches(_ each: (StoredHashMismatch) -> Void) throws {
        guard let sql = storedHashRows else { return }
        do {
            let statement = try connection.prepare(sql)
            while try statement.step() {
                guard let data = statement.blob(at: 2) else { continue }
                let actual = ContentHash(of: data)
                let stored = statement.text(at: 1) ?? "NULL"
                if ContentHash(hex: stored) != actual {
                    each(StoredHashMismatch(item: statement.text(at: 0) ?? "?", stored: stored, actual: actual))
                }
            }
        } catch {
            throw readError(error, item: nil)
        }
    }

    /// The rows where SQL yields hashes and sizes without tile bytes: stored hash columns only.
    var storedHashSource: String? {
        switch schema {
        case .flat: nil
        case .flatWithHash:
            "(SELECT zoom_level, tile_column, tile_row, length(tile_data) AS size, tile_hash AS hash FROM tiles_with_hash)"
        case .normalized:
            """
            (SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, map.tile_row AS tile_row, \
            length(images.tile_data) AS size, map.tile_id AS hash FROM map JOIN images ON images.tile_id = map.tile_id)
            """
        }
    }

    /// The table whose stored hashes `verify` checks, with the SQL giving (item, stored hash, bytes).
    var storedHashRows: String? {
        switch schema {
        case .flat: nil
        case .flatWithHash:
            "SELECT 'tile ' || zoom_level || '/' || tile_column || '/' || tile_row || ' (TMS row)', tile_hash, tile_data FROM tiles_with_hash"
        case .normalized:
            "SELECT 'image ' || quote(tile_id), tile_id, tile_data FROM images"
        }
    }

    /// Stored hashes are used only when 16 rows spread evenly over the whole table all match
    /// their bytes (hex in either case): TileMill-era `tile_id`s look like MD5s, and some are.
    private func detectVerifiedHashSource() -> String? {
        guard let source = storedHashSource, let rows = storedHashRows else { return nil }
        let table = schema == .normalized ? "images" : "tiles_with_hash"
        guard let bounds = try? connection.rows("SELECT min(rowid), max(rowid) FROM \(table)").first,
              let statement = try? connection.prepare(rows + " WHERE rowid >= ?1 LIMIT 1")
        else { return nil }
        guard let low = bounds[0].flatMap({ Int($0) }), let high = bounds[1].flatMap({ Int($0) }), low <= high else { return source }
        let samples = 16
        for step in 0..<samples {
            statement.reset()
            guard (try? statement.bind(Self.interpolate(low, high, step: step, of: samples - 1), at: 1)) != nil,
                  (try? statement.step()) == true else { return nil }
            guard let stored = statement.text(at: 1).flatMap({ ContentHash(hex: $0) }),
                  let data = statement.blob(at: 2), ContentHash(of: data) == stored else { return nil }
        }
        return source
    }

    /// The rowid `step / steps` of the way from `low` to `high`, for rowids anywhere in the
    /// 64-bit range (the distance is taken unsigned, so it cannot overflow).
    static func interpolate(_ low: Int, _ high: Int, step: Int, of steps: Int) -> Int {
        let distance = UInt(bitPattern: high &- low)
        let offset = distance / UInt(steps) * UInt(step) + distance % UInt(steps) * UInt(step) / UInt(steps)
        return low &+ Int(bitPattern: offset)
    }

    /// Rows of a `tiles` view of unknown shape that a summary reads at most.
    static let viewScanLimit = 1_000_000

    /// Without `countingBytes`, one pass over the tile index (the table's rows are not read). A
    /// `tiles` view of unknown shape is read up to `viewScanLimit` rows (`isPartial` beyond).
    public func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        guard Self.sqlIsExact(filter) else { return try summaryTileByTile(matching: filter, countingBytes: countingBytes) }
        let bytes = countingBytes ? "sum(length(tile_data))" : "0"
        let source = catalog.tilesIsUnknownView
            ? "(SELECT * FROM \(catalog.tileSource)\(Self.whereClause(filter)) LIMIT \(Self.viewScanLimit + 1))"
            : catalog.tileSource + Self.whereClause(filter)
        let sql = """
            SELECT zoom_level, count(*), \(bytes), min(tile_column), max(tile_column), \
            min(tile_row), max(tile_row) FROM \(source) GROUP BY zoom_level
            """
        var summary = TileSetSummary()
        do {
            let statement = try connection.prepare(sql)
            while try statement.step() {
                guard statement.isInteger(at: 0) else { continue }
                let z = statement.int(at: 0)
                guard (0...TileCoordinate.maxZoom).contains(z) else { continue }
                let last = (1 << z) - 1
                func clamp(_ value: Int) -> Int { min(last, max(0, value)) }
                let minX = clamp(statement.int(at: 3)), maxX = clamp(statement.int(at: 4))
                let minRow = clamp(statement.int(at: 5)), maxRow = clamp(statement.int(at: 6))
                summary.add(TileSetSummary.Zoom(
                    z: z, tileCount: statement.int(at: 1), byteCount: statement.int(at: 2),
                    columns: minX...max(minX, maxX), rows: (last - max(minRow, maxRow))...(last - minRow)))
            }
        } catch {
            throw readError(error, item: nil)
        }
        if catalog.tilesIsUnknownView, summary.tileCount > Self.viewScanLimit { summary.isPartial = true }
        return summary
    }

    /// A count of the rows (of a view, at most `limit + 1`) and the bytes estimated from the first
    /// 1,000 tiles' mean size.
    public func amount(matching filter: TileFilter, upTo limit: Int) throws -> TileAmount? {
        guard Self.sqlIsExact(filter) else {
            let summary = try summaryTileByTile(matching: filter, countingBytes: true)
            return TileAmount(tiles: summary.tileCount, bytes: summary.byteCount)
        }
        let condition = Self.whereClause(filter)
        let countSQL = catalog.tilesIsUnknownView
            ? "SELECT count(*) FROM (SELECT 1 FROM \(catalog.tileSource)\(condition) LIMIT \(limit + 1))"
            : "SELECT count(*) FROM \(catalog.tileSource)\(condition)"
        do {
            let count = try connection.rows(countSQL).first?.first.flatMap { $0.flatMap(Int.init) } ?? 0
            let sampleSQL = "SELECT avg(length(tile_data)) FROM (SELECT tile_data FROM \(catalog.tileSource)\(condition) LIMIT 1000)"
            let mean = try connection.rows(sampleSQL).first?.first.flatMap { $0.flatMap(Double.init) } ?? 0
            let bytes = (Double(count) * mean).rounded(.up)
            return TileAmount(tiles: count, bytes: bytes < Double(Int.max) ? Int(bytes) : Int.max, isLowerBound: catalog.tilesIsUnknownView && count > limit)
        } catch {
            throw readError(error, item: nil)
        }
    }

    func validatedData(_ data: Data?, coordinate: TileCoordinate) throws(TileStoreError) -> Data {
        guard let data else {
            throw TileStoreError(.invalidTile, store: location.address, item: Self.describe(coordinate),
                                 message: "tile_data is NULL")
        }
        guard !data.isEmpty else {
            throw TileStoreError(.invalidTile, store: location.address, item: Self.describe(coordinate),
                                 message: "tile_data is empty (0 bytes)")
        }
        return data
    }

    func readError(_ error: SQLiteError, item: String?) -> TileStoreError {
        error.readingError(store: location.address, item: item)
    }

    /// `tile 6/10/53 (TMS row 10)`.
    static func describe(_ coordinate: TileCoordinate) -> String {
        "tile \(coordinate) (TMS row \(coordinate.tmsY))"
    }

    /// True when `whereClause` selects exactly the filter's tiles; a region or a shard is
    /// narrowed to its extent there and checked tile by tile.
    static func sqlIsExact(_ filter: TileFilter) -> Bool { filter.region == nil && filter.tiles == nil && filter.shard == nil }

    /// A summary from the index rows within the filter's extent, each checked against it.
    private func summaryTileByTile(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        var summary = TileSetSummary()
        var rows: MBTilesRows
        do {
            rows = try filteredRows("zoom_level, tile_column, tile_row, \(countingBytes ? "length(tile_data)" : "0")", from: catalog.tileSource,
                                    filter: filter, ordered: false)
        } catch {
            throw readError(error, item: nil)
        }
        let statement = rows.statement
        while try rows.step(reader: self, item: nil) {
            guard statement.isInteger(at: 0), statement.isInteger(at: 1), statement.isInteger(at: 2),
                  let coordinate = try? TileCoordinate(z: statement.int(at: 0), x: statement.int(at: 1), tmsY: statement.int(at: 2)),
                  filter.contains(coordinate)
            else { continue }
            summary.add(coordinate, size: statement.int(at: 3))
        }
        return summary
    }

    /// SQL conditions for a filter; TMS rows are computed here, values are integers we made.
    static func whereClause(_ filter: TileFilter) -> String {
        if filter.isEverything { return "" }
        if !filter.isSpatial {
            return " WHERE zoom_level BETWEEN \(filter.zooms.lowerBound) AND \(filter.zooms.upperBound)"
        }
        let terms = filter.zooms.flatMap { z in
            filter.searchRanges(atZoom: z).map { range in
                "(zoom_level = \(z) AND tile_column BETWEEN \(range.columns.lowerBound) AND \(range.columns.upperBound)"
                    + " AND tile_row BETWEEN \(range.tmsRows.lowerBound) AND \(range.tmsRows.upperBound))"
            }
        }
        return terms.isEmpty ? " WHERE 0" : " WHERE " + terms.joined(separator: " OR ")
    }

    /// True when SQLite can give (zoom, column, row) order from an index, without sorting the
    /// whole table (which would hold every blob in a temporary B-tree).
    private static func indexProvidesOrder(connection: SQLiteConnection, source: String) -> Bool {
        let sql = "SELECT zoom_level, tile_column, tile_row, tile_data FROM \(source) ORDER BY zoom_level, tile_column, tile_row"
        return (try? planSorts(sql, connection: connection)) == false
    }

    /// True when SQLite's plan for `sql` sorts in a temporary B-tree.
    private static func planSorts(_ sql: String, connection: SQLiteConnection) throws(SQLiteError) -> Bool {
        try connection.rows("EXPLAIN QUERY PLAN " + sql).contains { row in row.contains { $0?.contains("TEMP B-TREE") == true } }
    }
}
