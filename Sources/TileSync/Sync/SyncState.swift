import Foundation

/// What the last sync left: for each tile of the destination, its size, MD5 (when known), the
/// source's and the destination's modification times (stores with a time per tile), and
/// whether the source had it; plus version stamps of the source and destination.
///
/// Kept in a small SQLite file where the destination's resource says (`syncStatePath`). It is
/// only a cache: it is used when its identity (source, options, filter) matches, store-level
/// data only while the stamps still match, per-tile data only while size and modification time
/// still match; otherwise it is rebuilt. A state file is not trusted: one that is not SQLite or
/// lacks its tables is dropped with a warning at once; a row that is no tile of zoom 0-30 with a
/// sane size is found where it is read (`SyncStateDamage`), and the sync then plans again as if
/// there were no state.
final class SyncState {
    static let version = "1"

    let path: String
    let connection: SQLiteConnection
    let identity: String
    let sourceStamp: String?
    let destinationStamp: String?
    /// Recorded tiles the source had, and tiles only the destination had.
    private let counts: (inSource: Int, destinationOnly: Int)
    private let lookup: SQLiteStatement

    struct Entry {
        let size: Int
        let hash: ContentHash?
        let sourceModificationTime: Int64?
        let destinationModificationTime: Int64?
        let inSource: Bool
    }

    /// Opens a state file; nil when it is missing or of another identity (or version), and nil
    /// with a warning in `warnings` when it cannot be read. Its rows are checked where they are
    /// read (`SyncStateDamage`), so a no-op sync, which reads only the counts, stays cheap.
    static func load(path: String, identity: String, warnings: inout [String]) -> SyncState? {
        guard AtomicFile.exists(path) else { return nil }
        do {
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            // One shared lock for the whole sync instead of one per tile looked up (each was a
            // few fcntl calls, a stat of the journal and a read of page 1: 4 syscalls a tile).
            // The next state is written to another file and renamed over this one, which a
            // shared lock does not hold up.
            try connection.execute("PRAGMA locking_mode = EXCLUSIVE")
            var meta: [String: String] = [:]
            for row in try connection.rows("SELECT key, value FROM meta") {
                if let key = row[0], let value = row[1] { meta[key] = value }
            }
            guard meta["version"] == version, meta["identity"] == identity else { return nil }
            let numbers = try connection.rows("SELECT coalesce(sum(in_source = 1), 0), coalesce(sum(in_source = 0), 0) FROM entry")
                .first?.map { $0.flatMap { Int($0) } } ?? []
            guard numbers.count == 2, let inSource = numbers[0], let destinationOnly = numbers[1] else {
                warnings.append("\(path): the sync state cannot be counted; it was ignored and will be rebuilt")
                return nil
            }
            let lookup = try connection.prepare("SELECT size, high, low, smtime, dmtime, in_source FROM entry WHERE z = ?1 AND x = ?2 AND y = ?3")
            return SyncState(path: path, connection: connection, identity: identity, lookup: lookup, counts: (inSource, destinationOnly),
                             sourceStamp: meta["source_stamp"], destinationStamp: meta["destination_stamp"])
        } catch {
            warnings.append("\(path): the sync state cannot be read (\(error)); it was ignored and will be rebuilt")
            return nil
        }
    }

    /// The destination's `agg_tiles_hash` as the last sync (of any identity) committed it, when
    /// the destination is still as that sync left it (`destinationStamp` is the one recorded);
    /// nil otherwise or when none was recorded.
    static func recordedAggregateHash(path: String, destinationStamp: String?) -> ContentHash? {
        guard let destinationStamp, AtomicFile.exists(path),
              let connection = try? SQLiteConnection(path: path, mode: .readOnly),
              let rows = try? connection.rows("SELECT key, value FROM meta WHERE key IN ('destination_stamp', 'destination_agg_tiles_hash')")
        else { return nil }
        var meta: [String: String] = [:]
        for row in rows where row.count == 2 {
            if let key = row[0], let value = row[1] { meta[key] = value }
        }
        guard meta["destination_stamp"] == destinationStamp else { return nil }
        return meta["destination_agg_tiles_hash"].flatMap { ContentHash(hex: $0) }
    }

    private init(path: String, connection: SQLiteConnection, identity: String, lookup: SQLiteStatement,
                 counts: (inSource: Int, destinationOnly: Int), sourceStamp: String?, destinationStamp: String?) {
        self.path = path
        self.connection = connection
        self.identity = identity
        self.lookup = lookup
        self.counts = counts
        self.sourceStamp = sourceStamp
        self.destinationStamp = destinationStamp
    }

    /// The recorded tile at a coordinate, nil when there is none.
    /// - Throws: `SyncStateDamage` when the row is not one a sync writes.
    func entry(at coordinate: TileCoordinate) throws -> Entry? {
        defer { lookup.reset() }
        guard (try? lookup.bind(coordinate.z, at: 1)) != nil, (try? lookup.bind(coordinate.x, at: 2)) != nil,
              (try? lookup.bind(coordinate.y, at: 3)) != nil, (try? lookup.step()) == true else { return nil }
        guard lookup.isInteger(at: 0), TileIndexRow.tileSizes.contains(lookup.int(at: 0)),
              TileIndexRow.isHash(lookup, at: 1), TileIndexRow.isTime(lookup, at: 3), TileIndexRow.isTime(lookup, at: 4)
        else { throw SyncStateDamage(path: path, reason: "a row for tile \(coordinate) that no sync writes") }
        return Entry(size: lookup.int(at: 0),
                     hash: lookup.isNull(at: 1) ? nil : ContentHash(storedHigh: lookup.int(at: 1), storedLow: lookup.int(at: 2)),
                     sourceModificationTime: lookup.isNull(at: 3) ? nil : Int64(lookup.int(at: 3)),
                     destinationModificationTime: lookup.isNull(at: 4) ? nil : Int64(lookup.int(at: 4)),
                     inSource: lookup.int(at: 5) != 0)
    }

    /// How many recorded tiles the source had (or, with false, only the destination had).
    func count(inSource: Bool) -> Int {
        inSource ? counts.inSource : counts.destinationOnly
    }

    /// The recorded tiles in `order`: the source's (`sourceOnly`) or the destination's. The file
    /// keeps them in (zoom, column, row) order; another order is sorted on disk.
    func index(order: TileOrder, sourceOnly: Bool) throws -> any TileIndexCursor {
        let sql = "SELECT z, x, y, size, high, low, \(sourceOnly ? "smtime" : "dmtime") FROM entry"
            + (sourceOnly ? " WHERE in_source = 1" : "") + " ORDER BY z, x, y"
        let cursor: StateIndexCursor
        do {
            cursor = StateIndexCursor(statement: try connection.prepare(sql), path: path)
        } catch {
            throw TileStoreError(.io, store: connection.path, message: "sync state: \(error)")
        }
        return try SortedTileIndex.sorted(cursor, from: .zoomColumnRow, into: order, store: connection.path, invalid: nil)
    }
}
