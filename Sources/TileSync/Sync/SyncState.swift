import Foundation

/// What the last sync left: for each tile of the destination, its size, MD5 (when known), the
/// source file's and the destination file's modification times (for folders), and whether the
/// source had it; plus stamps (size, mtime, inode) of the source and destination files.
///
/// Kept in a small SQLite file: `DST/.tilesync-state` for a folder, `.NAME.tilesync-state` beside
/// an MBTiles or tar. It is only a cache: it is used when its identity (source, layouts, filter)
/// matches, file-level data only while the stamps still match, per-tile data only while size and
/// modification time still match; otherwise it is rebuilt. Written to a temporary file and renamed.
final class SyncState {
    static let version = "1"

    let connection: SQLiteConnection
    let identity: String
    let sourceStamp: FileStamp?
    let destinationStamp: FileStamp?
    private let lookup: SQLiteStatement

    struct Entry {
        let size: Int
        let hash: ContentHash?
        let sourceModificationTime: Int64?
        let destinationModificationTime: Int64?
        let inSource: Bool
    }

    /// Where the state of a destination lives.
    static func path(for destination: TileStoreLocation) -> String {
        if destination.kind == .directory { return destination.path + "/.tilesync-state" }
        let url = URL(fileURLWithPath: destination.path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".tilesync-state").path
    }

    /// Opens a state file; nil when it is missing, unreadable or of another identity.
    static func load(path: String, identity: String) -> SyncState? {
        guard AtomicFile.exists(path), let connection = try? SQLiteConnection(path: path, mode: .readOnly),
              let rows = try? connection.rows("SELECT key, value FROM meta") else { return nil }
        var meta: [String: String] = [:]
        for row in rows { if let key = row[0], let value = row[1] { meta[key] = value } }
        guard meta["version"] == version, meta["identity"] == identity,
              let lookup = try? connection.prepare("SELECT size, high, low, smtime, dmtime, in_source FROM entry WHERE z = ?1 AND x = ?2 AND y = ?3")
        else { return nil }
        return SyncState(connection: connection, identity: identity, lookup: lookup,
                         sourceStamp: meta["source_stamp"].flatMap(FileStamp.init(text:)),
                         destinationStamp: meta["destination_stamp"].flatMap(FileStamp.init(text:)))
    }

    private init(connection: SQLiteConnection, identity: String, lookup: SQLiteStatement, sourceStamp: FileStamp?, destinationStamp: FileStamp?) {
        self.connection = connection
        self.identity = identity
        self.lookup = lookup
        self.sourceStamp = sourceStamp
        self.destinationStamp = destinationStamp
    }

    func entry(at coordinate: TileCoordinate) -> Entry? {
        defer { lookup.reset() }
        guard (try? lookup.bind(coordinate.z, at: 1)) != nil, (try? lookup.bind(coordinate.x, at: 2)) != nil,
              (try? lookup.bind(coordinate.y, at: 3)) != nil, (try? lookup.step()) == true else { return nil }
        return Entry(size: lookup.int(at: 0),
                     hash: lookup.isNull(at: 1) ? nil : ContentHash(storedHigh: lookup.int(at: 1), storedLow: lookup.int(at: 2)),
                     sourceModificationTime: lookup.isNull(at: 3) ? nil : Int64(lookup.int(at: 3)),
                     destinationModificationTime: lookup.isNull(at: 4) ? nil : Int64(lookup.int(at: 4)),
                     inSource: lookup.int(at: 5) != 0)
    }

    /// How many recorded tiles the source had (or, with false, only the destination had).
    func count(inSource: Bool) -> Int {
        let rows = try? connection.rows("SELECT count(*) FROM entry WHERE in_source = \(inSource ? 1 : 0)")
        return rows?.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
    }

    /// The recorded tiles in `order`: the source's (`sourceOnly`) or the destination's.
    func index(order: TileOrder, sourceOnly: Bool) throws -> any TileIndexCursor {
        let direction = order == .zoomColumnTMSRow ? "DESC" : "ASC"
        let sql = "SELECT z, x, y, size, high, low, \(sourceOnly ? "smtime" : "dmtime") FROM entry"
            + (sourceOnly ? " WHERE in_source = 1" : "") + " ORDER BY z, x, y \(direction)"
        do {
            return StateIndexCursor(statement: try connection.prepare(sql))
        } catch {
            throw TileStoreError(.io, store: "sync state", message: error.description)
        }
    }
}

/// Streams the entries of a sync state.
final class StateIndexCursor: TileIndexCursor {
    private let statement: SQLiteStatement
    let skipped = SkippedItems()

    init(statement: SQLiteStatement) {
        self.statement = statement
    }

    func next() throws -> TileIndexEntry? {
        do {
            guard try statement.step() else { return nil }
        } catch {
            throw TileStoreError(.io, store: "sync state", message: error.description)
        }
        return TileIndexRow.entry(from: statement)
    }
}

/// An index with nothing in it (a destination that does not exist yet).
final class EmptyIndexCursor: TileIndexCursor {
    let skipped = SkippedItems()
    func next() throws -> TileIndexEntry? { nil }
}
