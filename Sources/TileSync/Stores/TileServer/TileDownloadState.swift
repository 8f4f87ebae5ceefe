import Foundation

/// What downloads from one tile server into one destination keep between runs, in an SQLite
/// file beside the destination (`.NAME.tilesync-downloads`): per tile its size and MD5, or that
/// the server had none there, the validators of its last answer and the download that fetched
/// it; plus, while a download is unfinished, the bytes it fetched (`TileDownloadPartial`).
///
/// The rules (`step(for:needsBytes:)`): a tile fetched by the unfinished download (a run that
/// was interrupted) is taken as it is, so the next run asks only for what is missing; otherwise
/// a tile still fresh by its answer's `Cache-Control` or `Expires` is not asked for, and a stale
/// one is asked conditionally (`If-None-Match`, `If-Modified-Since`); a hole is asked again only
/// when its answer stated an expiry that has passed. `revalidate` treats every tile and hole
/// from earlier downloads as stale. Each answer is committed as it arrives. A file that is no
/// such state, or one for another source, is started anew; rows are checked where they are
/// read, and one that is not sane counts as absent.
final class TileDownloadState {
    static let version = "1"

    let path: String
    let revalidate: Bool
    let recording: Bool
    /// Lines for the run's notes (a state that was unreadable and started anew).
    private(set) var warnings: [String] = []
    private let connection: SQLiteConnection
    private let lookup: SQLiteStatement
    private var partial: TileDownloadPartial?
    private var meta: [String: String]
    private var recordedThisRun = false
    private var sampleOfThisRun: Data?

    var partialPath: String { path + "-partial" }
    /// The number of the latest download.
    private var download: Int { meta["download"].flatMap { Int($0) } ?? 0 }
    /// True while the latest download has not finished.
    private var isUnfinished: Bool { meta["unfinished"] == "1" }

    /// Opens the state of downloads from `source`, creating it when `recording`; nil when not
    /// recording and there is none (or none for this source, or none it can read).
    /// - Throws: `TileStoreError` when the file cannot be created or is held by another run.
    init?(path: String, source: String, revalidate: Bool, recording: Bool) throws(TileStoreError) {
        self.path = path
        self.revalidate = revalidate
        self.recording = recording
        guard recording || AtomicFile.exists(path) else { return nil }
        do {
            var opened = try Self.open(path, source: source, recording: recording)
            if opened == nil, recording {
                warnings.append("\(path): not a download state of TileSync; it was started anew")
                Self.remove(path)
                opened = try Self.open(path, source: source, recording: recording)
            }
            guard let (connection, meta) = opened else { return nil }
            self.connection = connection
            self.meta = meta
            lookup = try connection.prepare("""
                SELECT size, high, low, etag, last_modified, expiry, download, in_partial FROM tile WHERE z = ?1 AND x = ?2 AND y = ?3
                """)
            if isUnfinished, AtomicFile.exists(partialPath) {
                partial = try TileDownloadPartial(path: partialPath, writable: recording)
            } else if recording {
                Self.remove(partialPath)
            }
        } catch {
            // A dry run does without a state it cannot read (held by a running download, or a
            // journal only a writer can roll back): it asks the server instead.
            guard recording else { return nil }
            throw TileStoreError(.io, store: path, message: "the download state cannot be opened: \(error)",
                                 hint: "another run may be downloading into the same destination")
        }
    }

    /// The connection and meta of a state for `source` (emptied when it was another source's),
    /// nil when the file is no such state.
    private static func open(_ path: String, source: String, recording: Bool) throws(SQLiteError) -> (SQLiteConnection, [String: String])? {
        let connection = try SQLiteConnection(path: path, mode: recording ? .readWriteCreate : .readOnly)
        do {
            if recording {
                // Every answer is a commit of its own: a journal kept between them and the lock held for
                // the run make one a few writes, not a file created and deleted.
                try connection.execute("""
                    PRAGMA synchronous = OFF; PRAGMA journal_mode = PERSIST; PRAGMA locking_mode = EXCLUSIVE;
                    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
                    CREATE TABLE IF NOT EXISTS sample (data BLOB);
                    CREATE TABLE IF NOT EXISTS tile (z INTEGER, x INTEGER, y INTEGER, size INTEGER, high INTEGER, low INTEGER,
                        etag TEXT, last_modified TEXT, expiry INTEGER, download INTEGER, in_partial INTEGER,
                        PRIMARY KEY (z, x, y)) WITHOUT ROWID;
                    """)
            }
            var meta: [String: String] = [:]
            for row in try connection.rows("SELECT key, value FROM meta") {
                if let key = row[0], let value = row[1] { meta[key] = value }
            }
            if meta["version"] == version, meta["source"] == source { return (connection, meta) }
            guard recording else { return nil }
            try connection.execute("DELETE FROM tile; DELETE FROM meta; DELETE FROM sample")
            meta = ["version": version, "source": source, "nonce": UUID().uuidString, "download": "0", "unfinished": "0", "generation": "0"]
            try write(meta, to: connection)
            remove(path + "-partial")
            return (connection, meta)
        } catch let error where error.code == .busy {
            throw error
        } catch {
            return nil
        }
    }

    private static func write(_ values: [String: String], to connection: SQLiteConnection) throws(SQLiteError) {
        let statement = try connection.prepare("INSERT OR REPLACE INTO meta VALUES (?1, ?2)")
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try statement.bind(key, at: 1)
            try statement.bind(value, at: 2)
            try statement.run()
        }
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { AtomicFile.remove(path + suffix) }
    }

    /// What the state remembers of a tile; nil when nothing, or a row no download writes.
    func record(at coordinate: TileCoordinate) -> TileDownloadRecord? {
        defer { lookup.reset() }
        guard (try? lookup.bind(coordinate.z, at: 1)) != nil, (try? lookup.bind(coordinate.x, at: 2)) != nil,
              (try? lookup.bind(coordinate.y, at: 3)) != nil, (try? lookup.step()) == true,
              lookup.isInteger(at: 0), TileIndexRow.isHash(lookup, at: 1), lookup.isInteger(at: 6), lookup.isInteger(at: 7),
              lookup.isNull(at: 5) || lookup.isInteger(at: 5)
        else { return nil }
        let size = lookup.int(at: 0)
        let hash = lookup.isNull(at: 1) ? nil : ContentHash(storedHigh: lookup.int(at: 1), storedLow: lookup.int(at: 2))
        guard hash == nil ? size == 0 : TileIndexRow.tileSizes.contains(size) else { return nil }
        return TileDownloadRecord(size: size, hash: hash,
                                  validators: TileServerValidators(etag: lookup.text(at: 3), lastModified: lookup.text(at: 4),
                                                                   expiry: lookup.isNull(at: 5) ? nil : Int64(lookup.int(at: 5))),
                                  download: lookup.int(at: 6), inPartial: lookup.int(at: 7) == 1)
    }

    /// What to do for a tile of the plan; `needsBytes` when the tile's bytes are wanted, not
    /// only its size and MD5; `revalidating` asks again whatever the record's expiry (a listed tile).
    func step(for coordinate: TileCoordinate, needsBytes: Bool, revalidating: Bool = false,
              now: Int64 = Int64(Date().timeIntervalSince1970)) -> TileDownloadStep {
        guard let record = record(at: coordinate) else { return .ask(ifChanged: nil) }
        let revalidate = self.revalidate || revalidating
        let thisDownload = isUnfinished && record.download == download
        if record.isHole {
            let current = thisDownload || (!revalidate && (record.validators.expiry.map { $0 > now } ?? true))
            return current ? .skip : .ask(ifChanged: nil)
        }
        let bytesAtHand = !needsBytes || record.inPartial
        let fresh = thisDownload || (!revalidate && (record.validators.expiry.map { $0 > now } ?? false))
        if fresh && bytesAtHand { return .use(record) }
        return .ask(ifChanged: bytesAtHand && record.validators.canRevalidate ? record.validators : nil)
    }

    /// The bytes the partial store holds for a tile recorded there, nil when it has none (or
    /// other bytes than recorded).
    func bytes(at coordinate: TileCoordinate, record: TileDownloadRecord) -> Data? {
        guard record.inPartial, let hash = record.hash else { return nil }
        return partial?.bytes(at: coordinate, hash: hash)
    }

    /// Remembers a tile the server sent: its bytes in the partial store, then its row.
    /// - Throws: `SQLiteError` when either cannot be written.
    func remember(_ data: Data, hash: ContentHash, at coordinate: TileCoordinate, validators: TileServerValidators) throws(SQLiteError) {
        guard recording else { return }
        try beginRecording()
        if sampleOfThisRun == nil {
            sampleOfThisRun = data
            try connection.execute("DELETE FROM sample")
            try connection.prepare("INSERT INTO sample VALUES (?1)").run(binding: data, at: 1)
        }
        try partial?.keep(data, at: coordinate)
        try write(TileDownloadRecord(size: data.count, hash: hash, validators: validators, download: download, inPartial: true), at: coordinate)
    }

    /// The bytes of a tile the server sent, to learn the tiles' format from without a request:
    /// the first of this run, else the one an earlier run kept.
    var sample: Data? {
        if let sampleOfThisRun { return sampleOfThisRun }
        guard let statement = try? connection.prepare("SELECT data FROM sample LIMIT 1"), (try? statement.step()) == true else { return nil }
        return statement.blob(at: 0).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Remembers that the server had no tile here.
    /// - Throws: `SQLiteError` when the row cannot be written.
    func rememberHole(at coordinate: TileCoordinate, validators: TileServerValidators) throws(SQLiteError) {
        guard recording else { return }
        try beginRecording()
        try write(TileDownloadRecord(size: 0, hash: nil, validators: validators, download: download, inPartial: false), at: coordinate)
    }

    /// The record of a tile the server says is unchanged (304), with the answer's validators
    /// and freshness; nil when nothing was recorded there.
    /// - Throws: `SQLiteError` when the row cannot be written.
    func refresh(at coordinate: TileCoordinate, validators: TileServerValidators) throws(SQLiteError) -> TileDownloadRecord? {
        guard let old = record(at: coordinate), !old.isHole else { return nil }
        guard recording else { return old }
        try beginRecording()
        let inPartial = old.inPartial && isUnfinished && old.download == download
        let record = TileDownloadRecord(size: old.size, hash: old.hash, validators: old.validators.refreshed(by: validators),
                                        download: download, inPartial: inPartial)
        try write(record, at: coordinate)
        return record
    }

    private lazy var upsert: SQLiteStatement? = try? connection.prepare("INSERT OR REPLACE INTO tile VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)")

    private func write(_ record: TileDownloadRecord, at coordinate: TileCoordinate) throws(SQLiteError) {
        guard let upsert else { throw SQLiteError(code: .error, message: "cannot prepare the row", path: path, sql: nil) }
        try TileIndexRow.bind(coordinate, size: record.size, hash: record.hash, to: upsert)
        try upsert.bind(record.validators.etag, at: 7)
        try upsert.bind(record.validators.lastModified, at: 8)
        try upsert.bind(record.validators.expiry.map { Int($0) }, at: 9)
        try upsert.bind(record.download, at: 10)
        try upsert.bind(record.inPartial ? 1 : 0, at: 11)
        try upsert.run()
    }

    /// At the first answer of a run: a new download unless one is unfinished, a new
    /// generation (what `stamp` tells), the partial store opened.
    private func beginRecording() throws(SQLiteError) {
        guard !recordedThisRun else { return }
        if !isUnfinished {
            Self.remove(partialPath)
            meta["download"] = String(download + 1)
            meta["unfinished"] = "1"
        }
        meta["generation"] = String((meta["generation"].flatMap { Int($0) } ?? 0) + 1)
        try Self.write(meta, to: connection)
        if partial == nil { partial = try TileDownloadPartial(path: partialPath, writable: true) }
        recordedThisRun = true
    }

    /// A text that changes whenever what the state would give changes; nil while a download is
    /// unfinished, with `revalidate`, or when some tile (or hole with an expiry) is stale.
    func stamp(now: Int64 = Int64(Date().timeIntervalSince1970)) -> String? {
        guard !revalidate, !isUnfinished, let nonce = meta["nonce"], let generation = meta["generation"],
              let statement = try? connection.prepare("""
                  SELECT EXISTS (SELECT 1 FROM tile WHERE (size > 0 AND (expiry IS NULL OR expiry <= ?1)) OR (size = 0 AND expiry <= ?1))
                  """),
              (try? statement.bind(Int(now), at: 1)) != nil, (try? statement.step()) == true, statement.int(at: 0) == 0
        else { return nil }
        return "downloads \(nonce) \(generation)"
    }

    /// Ends a download that is complete: its partial store is deleted; the rows are kept
    /// (`keepingRecords`, for the next sync) or deleted with it.
    func finish(keepingRecords: Bool) {
        guard recording else { return }
        partial = nil
        recordedThisRun = false
        Self.remove(partialPath)
        guard keepingRecords else {
            Self.remove(path)
            return
        }
        if isUnfinished {
            meta["unfinished"] = "0"
            try? connection.execute("UPDATE tile SET in_partial = 0 WHERE in_partial = 1")
            try? Self.write(meta, to: connection)
        }
        // No transaction is open: the journal kept between the run's commits holds nothing.
        try? connection.execute("PRAGMA journal_mode = DELETE")
        AtomicFile.remove(path + "-journal")
    }
}
