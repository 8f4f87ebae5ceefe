import Foundation

/// What each source tile became the last time a sync rewrote it (`--tile-format`,
/// `--drop-empty`, `--compress`): source MD5 -> MD5 and size of the written bytes, or dropped.
/// A sync lists its source through the memo, so it re-encodes only tiles whose bytes it has not
/// seen under the same settings. Kept beside the destination's sync state (`<state>.rewrites`),
/// written anew by each sync that listed the whole source (so it holds the source's contents of
/// that run only) and renamed into place after the sync; without a place for it, it lives for one run. Tiles re-encoded in
/// this run keep their bytes in a private temporary database until the sync has written them.
/// It is only a cache: unreadable or foreign files are ignored and rebuilt.
final class RewriteMemo {
    /// A remembered result.
    enum Entry: Equatable {
        case written(hash: ContentHash, size: Int)
        case dropped
    }

    static let version = "1"

    private let path: String?
    private let identity: String
    private let previous: SQLiteStatement?
    private let previousConnection: SQLiteConnection?
    private let next: SQLiteConnection
    private let nextPath: String?
    private let insert: SQLiteStatement
    private let findNext: SQLiteStatement
    private let fresh: SQLiteConnection
    private let insertFresh: SQLiteStatement
    private let findFresh: SQLiteStatement
    private var finished = false

    /// - Parameters:
    ///   - path: where the memo is kept; nil keeps it for this run only.
    ///   - identity: the rewriting settings; a memo of other settings is ignored.
    init(path: String?, identity: String) throws(SQLiteError) {
        self.path = path
        self.identity = identity
        var loaded: (SQLiteConnection, SQLiteStatement)?
        if let path, AtomicFile.exists(path) { loaded = Self.open(path, identity: identity) }
        previousConnection = loaded?.0
        previous = loaded?.1
        let schema = "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
            + "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
            + "CREATE TABLE memo (high INTEGER, low INTEGER, size INTEGER, out_high INTEGER, out_low INTEGER, out_size INTEGER,"
            + " PRIMARY KEY (high, low)) WITHOUT ROWID; BEGIN;"
        // Beside the memo, or, while the folder that will hold it does not exist yet (a sync
        // creating a folder), beside that folder, as the sync state does.
        nextPath = path.map { path in
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            return AtomicFile.temporaryPath(beside: AtomicFile.exists(folder) ? path : folder + ".tilesync-state.rewrites")
        }
        next = try SQLiteConnection(path: nextPath ?? "", mode: .readWriteCreate)
        try next.execute(schema)
        insert = try next.prepare("INSERT OR REPLACE INTO memo VALUES (?1, ?2, ?3, ?4, ?5, ?6)", persistent: true)
        findNext = try next.prepare("SELECT size, out_high, out_low, out_size FROM memo WHERE high = ?1 AND low = ?2", persistent: true)
        fresh = try SQLiteConnection(path: "", mode: .readWriteCreate)
        try fresh.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE fresh (high INTEGER, low INTEGER, data BLOB, PRIMARY KEY (high, low)) WITHOUT ROWID; BEGIN;
            """)
        insertFresh = try fresh.prepare("INSERT OR REPLACE INTO fresh VALUES (?1, ?2, ?3)", persistent: true)
        findFresh = try fresh.prepare("SELECT data FROM fresh WHERE high = ?1 AND low = ?2", persistent: true)
    }

    deinit {
        if let nextPath, !finished { AtomicFile.remove(nextPath) }
    }

    private static func open(_ path: String, identity: String) -> (SQLiteConnection, SQLiteStatement)? {
        guard let connection = try? SQLiteConnection(path: path, mode: .readOnly),
              let meta = try? connection.rows("SELECT key, value FROM meta"),
              meta.contains(where: { $0.first == "version" && $0.last == version }),
              meta.contains(where: { $0.first == "identity" && $0.last == identity }),
              let lookup = try? connection.prepare("SELECT size, out_high, out_low, out_size FROM memo WHERE high = ?1 AND low = ?2", persistent: true)
        else { return nil }
        return (connection, lookup)
    }

    /// What a source tile of this content became, when this run or the last one rewrote it
    /// (what the last one knew is carried into the next memo).
    func entry(forSource hash: ContentHash, size: Int) throws(SQLiteError) -> Entry? {
        if let entry = try Self.read(findNext, hash: hash, size: size) { return entry }
        guard let previous, let entry = try Self.read(previous, hash: hash, size: size) else { return nil }
        try remember(entry, forSource: hash, size: size)
        answeredFromLastRun = true
        return entry
    }

    /// True once an entry came from the last run's memo: a tile of that content was not looked
    /// into by this run.
    private(set) var answeredFromLastRun = false

    /// The entry a lookup statement finds; nil for none or a row no run writes.
    private static func read(_ lookup: SQLiteStatement, hash: ContentHash, size: Int) throws(SQLiteError) -> Entry? {
        defer { lookup.reset() }
        try lookup.bind(hash.storedHalves.high, at: 1)
        try lookup.bind(hash.storedHalves.low, at: 2)
        guard try lookup.step(), lookup.isInteger(at: 0), lookup.int(at: 0) == size else { return nil }
        if lookup.isNull(at: 1) { return .dropped }
        guard lookup.isInteger(at: 1), lookup.isInteger(at: 2), lookup.isInteger(at: 3), lookup.int(at: 3) >= 0 else { return nil }
        return .written(hash: ContentHash(storedHigh: lookup.int(at: 1), storedLow: lookup.int(at: 2)), size: lookup.int(at: 3))
    }

    /// Records what a source tile became; `bytes` (when written) are kept for this run.
    func record(_ entry: Entry, forSource hash: ContentHash, size: Int, bytes: Data?) throws(SQLiteError) {
        try remember(entry, forSource: hash, size: size)
        guard let bytes else { return }
        try insertFresh.bind(hash.storedHalves.high, at: 1)
        try insertFresh.bind(hash.storedHalves.low, at: 2)
        try insertFresh.bind(bytes, at: 3)
        try insertFresh.run()
    }

    /// The bytes this run made for a source tile of this content, nil when it made none.
    func freshBytes(forSource hash: ContentHash) throws(SQLiteError) -> Data? {
        defer { findFresh.reset() }
        try findFresh.bind(hash.storedHalves.high, at: 1)
        try findFresh.bind(hash.storedHalves.low, at: 2)
        return try findFresh.step() ? findFresh.blob(at: 0) : nil
    }

    /// After a sync that listed the whole source: the memo of this run replaces the last one.
    func finish() throws {
        guard !finished else { return }
        finished = true
        let meta = try next.prepare("INSERT INTO meta VALUES (?1, ?2)")
        for (key, value) in [("version", Self.version), ("identity", identity)] {
            try meta.bind(key, at: 1)
            try meta.bind(value, at: 2)
            try meta.run()
        }
        try next.execute("COMMIT")
        if let nextPath, let path { try AtomicFile.rename(nextPath, to: path) }
    }

    private func remember(_ entry: Entry, forSource hash: ContentHash, size: Int) throws(SQLiteError) {
        try insert.bind(hash.storedHalves.high, at: 1)
        try insert.bind(hash.storedHalves.low, at: 2)
        try insert.bind(size, at: 3)
        switch entry {
        case .written(let output, let outputSize):
            try insert.bind(output.storedHalves.high, at: 4)
            try insert.bind(output.storedHalves.low, at: 5)
            try insert.bind(outputSize, at: 6)
        case .dropped:
            for column in Int32(4)...6 { try insert.bind(nil as Int?, at: column) }
        }
        try insert.run()
    }
}
