import Foundation

/// What the last sync left: for each tile of the destination, its size, MD5 (when known), the
/// source's and the destination's modification times (stores with a time per tile), and
/// whether the source had it; plus version stamps of the source and destination.
///
/// Kept in a small SQLite file where the destination's resource says (`syncStatePath`). It is
/// only a cache: it is used when its identity (source, options, filter) matches, store-level
/// data only while the stamps still match, per-tile data only while size and modification time
/// still match; otherwise it is rebuilt. A state file is not trusted: one that is not SQLite,
/// lacks its tables, or holds a row that is no tile of zoom 0-30 with a sane size is dropped
/// with a warning, and the sync runs as if there were none (the check is the same single pass
/// that counts the rows).
final class SyncState {
    static let version = "1"

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

    /// One pass over the rows: how many the source had, how many only the destination had, and
    /// how many a state file must not hold (a coordinate off the grid of zooms 0-30, a size that
    /// is no tile's, hash halves or times that are not integers, a source flag other than 0/1).
    /// A repeated coordinate needs no check: every reader of the state collapses repeats.
    static let countsAndBadRows = """
        SELECT coalesce(sum(in_source = 1), 0), coalesce(sum(in_source = 0), 0), coalesce(sum(NOT (
            typeof(z) = 'integer' AND typeof(x) = 'integer' AND typeof(y) = 'integer' AND z BETWEEN 0 AND 30
            AND x >= 0 AND y >= 0 AND x < (1 << z) AND y < (1 << z)
            AND typeof(size) = 'integer' AND size BETWEEN 1 AND 2147483647
            AND ((high IS NULL AND low IS NULL) OR (typeof(high) = 'integer' AND typeof(low) = 'integer'))
            AND (smtime IS NULL OR typeof(smtime) = 'integer') AND (dmtime IS NULL OR typeof(dmtime) = 'integer')
            AND in_source IN (0, 1))), 0) FROM entry
        """

    /// Opens a state file; nil when it is missing or of another identity (or version), and nil
    /// with a warning in `warnings` when it is damaged or holds impossible rows.
    static func load(path: String, identity: String, warnings: inout [String]) -> SyncState? {
        guard AtomicFile.exists(path) else { return nil }
        do {
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            var meta: [String: String] = [:]
            for row in try connection.rows("SELECT key, value FROM meta") {
                if let key = row[0], let value = row[1] { meta[key] = value }
            }
            guard meta["version"] == version, meta["identity"] == identity else { return nil }
            let numbers = try connection.rows(countsAndBadRows).first?.map { $0.flatMap { Int($0) } } ?? []
            guard numbers.count == 3, let inSource = numbers[0], let destinationOnly = numbers[1], let bad = numbers[2] else {
                warnings.append("\(path): the sync state cannot be counted; it was ignored and will be rebuilt")
                return nil
            }
            guard bad == 0 else {
                warnings.append("\(path): the sync state holds \(bad) impossible rows; it was ignored and will be rebuilt")
                return nil
            }
            let lookup = try connection.prepare("SELECT size, high, low, smtime, dmtime, in_source FROM entry WHERE z = ?1 AND x = ?2 AND y = ?3")
            return SyncState(connection: connection, identity: identity, lookup: lookup, counts: (inSource, destinationOnly),
                             sourceStamp: meta["source_stamp"], destinationStamp: meta["destination_stamp"])
        } catch {
            warnings.append("\(path): the sync state cannot be read (\(error)); it was ignored and will be rebuilt")
            return nil
        }
    }

    private init(connection: SQLiteConnection, identity: String, lookup: SQLiteStatement, counts: (inSource: Int, destinationOnly: Int),
                 sourceStamp: String?, destinationStamp: String?) {
        self.connection = connection
        self.identity = identity
        self.lookup = lookup
        self.counts = counts
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
        inSource ? counts.inSource : counts.destinationOnly
    }

    /// The recorded tiles in `order`: the source's (`sourceOnly`) or the destination's. The file
    /// keeps them in (zoom, column, row) order; another order is sorted on disk.
    func index(order: TileOrder, sourceOnly: Bool) throws -> any TileIndexCursor {
        let sql = "SELECT z, x, y, size, high, low, \(sourceOnly ? "smtime" : "dmtime") FROM entry"
            + (sourceOnly ? " WHERE in_source = 1" : "") + " ORDER BY z, x, y"
        let cursor: StateIndexCursor
        do {
            cursor = StateIndexCursor(statement: try connection.prepare(sql))
        } catch {
            throw TileStoreError(.io, store: connection.path, message: "sync state: \(error)")
        }
        return try SortedTileIndex.sorted(cursor, from: .zoomColumnRow, into: order, store: connection.path, invalid: nil)
    }
}
