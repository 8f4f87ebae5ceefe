/// The changes a sync will make, kept on disk in a private temporary SQLite table so that a plan
/// for millions of tiles needs no memory, and so no destination cursor is open while applying.
final class SyncPlanTable {
    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    private let find: SQLiteStatement
    private(set) var count = 0

    struct Row {
        let coordinate: TileCoordinate
        let action: TileSynchronizer.Action
        let size: Int
        let sourceModificationTime: Int64?
    }

    init() throws(SQLiteError) {
        connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE plan (z INTEGER, x INTEGER, y INTEGER, action TEXT, size INTEGER, smtime INTEGER, seq INTEGER,
                               PRIMARY KEY (z, x, y)) WITHOUT ROWID;
            BEGIN;
            """)
        insert = try connection.prepare("INSERT OR REPLACE INTO plan VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        find = try connection.prepare("SELECT action, size, smtime FROM plan WHERE z = ?1 AND x = ?2 AND y = ?3")
    }

    func add(_ coordinate: TileCoordinate, action: TileSynchronizer.Action, size: Int, sourceModificationTime: Int64?) throws(SQLiteError) {
        try insert.bind(coordinate.z, at: 1)
        try insert.bind(coordinate.x, at: 2)
        try insert.bind(coordinate.y, at: 3)
        try insert.bind(action.rawValue, at: 4)
        try insert.bind(size, at: 5)
        try insert.bind(sourceModificationTime.map { Int($0) }, at: 6)
        try insert.bind(count, at: 7)
        try insert.run()
        count += 1
    }

    func row(at coordinate: TileCoordinate) throws(SQLiteError) -> Row? {
        defer { find.reset() }
        try find.bind(coordinate.z, at: 1)
        try find.bind(coordinate.x, at: 2)
        try find.bind(coordinate.y, at: 3)
        guard try find.step(), let action = find.text(at: 0).flatMap(TileSynchronizer.Action.init(rawValue:)) else { return nil }
        return Row(coordinate: coordinate, action: action, size: find.int(at: 1),
                   sourceModificationTime: find.isNull(at: 2) ? nil : Int64(find.int(at: 2)))
    }

    /// How many rows have one of `actions`.
    func count(of actions: [TileSynchronizer.Action]) throws(SQLiteError) -> Int {
        let list = actions.map { "'\($0.rawValue)'" }.joined(separator: ",")
        let statement = try connection.prepare("SELECT count(*) FROM plan WHERE action IN (\(list))")
        return try statement.step() ? statement.int(at: 0) : 0
    }

    /// Every row in the order it was added (the merge's order).
    func rowsInPlanOrder(each: (Row) throws -> Void) throws {
        try rows(selecting: "SELECT z, x, y, action, size, smtime FROM plan ORDER BY seq", each: each)
    }

    /// Every row with one of `actions`, in (zoom, column, row) order.
    func rows(_ actions: [TileSynchronizer.Action], each: (Row) throws -> Void) throws {
        let list = actions.map { "'\($0.rawValue)'" }.joined(separator: ",")
        try rows(selecting: "SELECT z, x, y, action, size, smtime FROM plan WHERE action IN (\(list)) ORDER BY z, x, y", each: each)
    }

    private func rows(selecting sql: String, each: (Row) throws -> Void) throws {
        let statement = try connection.prepare(sql)
        while try statement.step() {
            guard let action = statement.text(at: 3).flatMap(TileSynchronizer.Action.init(rawValue:)) else { continue }
            try each(Row(coordinate: TileCoordinate(unchecked: statement.int(at: 0), statement.int(at: 1), statement.int(at: 2)),
                         action: action, size: statement.int(at: 4),
                         sourceModificationTime: statement.isNull(at: 5) ? nil : Int64(statement.int(at: 5))))
        }
    }
}
