public import Foundation

/// Read-only access to a tile store for apps: open once, then ask for tiles by XYZ coordinate
/// from any thread (a map view's tile loaders ask concurrently).
///
/// ```swift
/// let source = try TileSource(path: "world.mbtiles")
/// let png = try source.tile(z: 11, x: 327, y: 791)   // XYZ, as map views ask; nil when absent
/// ```
///
/// Thread safety: each call borrows a reader from a small pool (one SQLite connection per
/// reader for MBTiles, opened read-only), so concurrent calls run in parallel on separate
/// connections and never share one. Opening an MBTiles file reads only its schema, never the
/// tiles. A folder is read file by file. A store without cheap random access (a tar archive has
/// no index) is streamed once, when it is opened, into a private temporary copy of the
/// registry's local index kind (an MBTiles file), which then serves the lookups.
///
/// While a patch or sync changes an MBTiles (in one transaction), each read sees the old tile
/// or the new one; `withSnapshot` gives a series of reads that all see one version.
public final class TileSource: @unchecked Sendable {
    /// Where the store is.
    public let location: TileStoreLocation
    /// The store's metadata, read when it was opened.
    public let metadata: TileMetadata
    /// True when the store keeps each tile in a file of its own (a folder tree), which
    /// `tileFile(at:)` opens without reading.
    public let keepsTilesInFiles: Bool
    /// Readers beyond this many are closed when returned to the pool.
    public static let pooledReaders = 8

    private let lock = NSLock()
    private var idle: [PooledReader] = []
    private let makeReader: @Sendable () throws -> any TileReader
    private let temporaryIndex: TileStoreLocation?
    private let heldReadNanoseconds: UInt64
    private var releaseTimer: (any DispatchSourceTimer)?

    /// A reader waiting in the pool, and since when (uptime nanoseconds) it holds a view.
    private struct PooledReader {
        let reader: any TileReader
        /// The reader's `tileFiles` role, looked up once.
        let tileFiles: (any TileFileOpening)?
        var heldSince: UInt64?

        init(reader: any TileReader) {
            self.reader = reader
            tileFiles = reader.roles.tileFiles
        }
    }

    /// Opens a store at a path; the kind is inferred as on the command line (`mbtiles:`, `dir:`,
    /// `tar:` prefixes force one).
    /// - Throws: `TileStoreError` when the store is missing, not a tile store, or damaged.
    public convenience init(path: String) throws {
        try self.init(location: TileStoreLocation(parsing: path))
    }

    /// Opens a store (with its options: the layout of a folder or tar).
    /// - Throws: `TileStoreError` when the store is missing, not a tile store, or damaged.
    /// - Parameter heldReadSeconds: when above 0, reads within this many seconds of each other
    ///   may share one view of the store (the consistent-reads role: for an MBTiles one SQLite read
    ///   transaction, which saves the lock and journal checks of each lookup). A read then sees
    ///   the store as it was up to twice this long ago, and a writer's commit waits as long for
    ///   the views to be released (a timer releases those of idle readers). For servers; 0 (the
    ///   default) reads the store as it is at each call.
    /// - Parameter mappedReadBytes: when above 0, an SQLite store (MBTiles, GeoPackage) is read
    ///   through a memory map of up to this many bytes of its file (`ConsistentReading`): no copy
    ///   through the kernel per page. For servers, with `MappedFileGuard` installed first: a read
    ///   of a file truncated in place meanwhile otherwise raises SIGBUS. 0 (the default) reads
    ///   with read calls.
    public init(location: TileStoreLocation, heldReadSeconds: Double = 0, mappedReadBytes: Int = 0) throws {
        self.location = location
        heldReadNanoseconds = heldReadSeconds > 0 ? UInt64(min(heldReadSeconds, 60) * 1e9) : 0
        do {
            let openReader: @Sendable () throws -> any TileReader = {
                let reader = try location.openReader()
                if mappedReadBytes > 0 { reader.roles.consistentReads?.readThroughMemoryMap(upTo: mappedReadBytes) }
                return reader
            }
            let first = try openReader()
            metadata = try first.metadata()
            keepsTilesInFiles = first.hasCheapRandomAccess && first.roles.tileFiles != nil
            if first.hasCheapRandomAccess {
                temporaryIndex = nil
                makeReader = openReader
                idle = [PooledReader(reader: first)]
            } else {
                let indexLocation = try Self.makeIndex(of: location)
                temporaryIndex = indexLocation
                makeReader = { try indexLocation.openReader() }
                idle = [PooledReader(reader: try indexLocation.openReader())]
            }
        } catch {
            throw TileStoreError(wrapping: error, store: location.address)
        }
        if heldReadNanoseconds > 0 { startReleaseTimer() }
    }

    /// Every held period, releases the views of readers that wait in the pool and have held
    /// theirs for longer, so a writer never waits for a reader nobody uses.
    private func startReleaseTimer() {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let period = DispatchTimeInterval.nanoseconds(Int(heldReadNanoseconds))
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.setEventHandler { [weak self] in self?.releaseIdleViews() }
        timer.resume()
        releaseTimer = timer
    }

    private func releaseIdleViews() {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        defer { lock.unlock() }
        for index in idle.indices {
            if let since = idle[index].heldSince, now &- since >= heldReadNanoseconds {
                idle[index].reader.roles.consistentReads?.releaseHeldReads()
                idle[index].heldSince = nil
            }
        }
    }

    /// A reader of its own over what serves the lookups (the store, or its scratch copy), for
    /// a caller that streams the store (a merge lists each source through one).
    /// - Throws: `TileStoreError` when it cannot be opened.
    func openLookupReader() throws -> any TileReader {
        try makeReader()
    }

    /// Streams a store without random access into a private scratch copy of the registry's
    /// local index kind.
    private static func makeIndex(of location: TileStoreLocation) throws -> TileStoreLocation {
        guard let kind = TileStoreRegistry.standard.localIndexKind else {
            throw TileStoreError(.unsupported, store: location.address, message: "has no random access and no kind can index it here")
        }
        AtomicFile.removeStaleSystemTemporaries()
        let indexLocation = TileStoreLocation(anyKind: kind, address: AtomicFile.scratchPath(in: NSTemporaryDirectory(), purpose: "source-index"))
        var options = TileConverter.Options()
        options.skipInvalid = true
        _ = try TileConverter.convert(from: location, to: indexLocation, options: options)
        return indexLocation
    }

    deinit {
        releaseTimer?.cancel()
        for pooled in idle { pooled.reader.roles.consistentReads?.releaseHeldReads() }
        idle.removeAll()
        temporaryIndex?.resource.removeStore()
    }

    /// The bytes of the tile at an XYZ coordinate (row 0 at the north, as MapKit, Google and OSM
    /// number them), or nil when the store has no tile there.
    /// - Throws: `TileCoordinateError` for a coordinate outside the zoom's grid, `TileStoreError`
    ///   when the store cannot be read or the tile is invalid (NULL or empty data).
    public func tile(z: Int, x: Int, y: Int) throws -> Data? {
        try tile(at: TileCoordinate(z: z, x: x, y: y))
    }

    /// The bytes of a tile, or nil when the store has none there.
    /// - Throws: `TileStoreError` when the store cannot be read or the tile is invalid.
    public func tile(at coordinate: TileCoordinate) throws -> Data? {
        var pooled = try borrow()
        defer { giveBack(pooled) }
        if heldReadNanoseconds > 0 {
            let now = DispatchTime.now().uptimeNanoseconds
            if let since = pooled.heldSince, now &- since >= heldReadNanoseconds {
                pooled.reader.roles.consistentReads?.releaseHeldReads()
                pooled.heldSince = nil
            }
            if pooled.heldSince == nil, (try? pooled.reader.roles.consistentReads?.holdReads()) == true { pooled.heldSince = now }
        }
        return try pooled.reader.tile(at: coordinate)
    }

    /// The file of a tile, open but not read (`TileFile`: its identity, its bytes, its
    /// descriptor for sending), when the store keeps each tile in a file of its own
    /// (`keepsTilesInFiles`); nil when the store has no tile there or keeps no files.
    /// - Throws: `TileStoreError` when the file is there but cannot be opened or is invalid (empty).
    public func tileFile(at coordinate: TileCoordinate) throws -> TileFile? {
        guard keepsTilesInFiles else { return nil }
        let pooled = try borrow()
        defer { giveBack(pooled) }
        return try pooled.tileFiles?.openTileFile(at: coordinate)
    }

    /// The tile holding a point at a zoom level, or nil when the store has none there.
    /// - Throws: `GeographyError` for invalid degrees or zoom, or a read error.
    public func tile(longitude: Double, latitude: Double, zoom: Int) throws -> Data? {
        try tile(at: WebMercator.tile(longitude: longitude, latitude: latitude, zoom: zoom))
    }

    /// Runs `body` with a snapshot: every tile read through it sees the store as it was when
    /// `body` began, so a screen drawn from one snapshot never mixes tiles from before and after
    /// a patch (`TilePatcher.apply`) or sync that commits meanwhile. For MBTiles the snapshot is
    /// one SQLite read transaction, and a writer's commit waits for it (up to 5 s, then fails
    /// and changes nothing), so keep `body` short. Other kinds read the store as it is.
    /// - Throws: what `body` throws, or `TileStoreError` when the snapshot cannot be taken.
    public func withSnapshot<T>(_ body: (TileSourceSnapshot) throws -> T) throws -> T {
        var pooled = try borrow()
        defer { giveBack(pooled) }
        pooled.reader.roles.consistentReads?.releaseHeldReads()
        pooled.heldSince = nil
        let reader = pooled.reader
        guard let consistent = reader.roles.consistentReads else { return try body(TileSourceSnapshot(reader: reader)) }
        return try consistent.withConsistentReads { try body(TileSourceSnapshot(reader: reader)) }
    }

    /// Closes the readers waiting in the pool (the next lookup opens one again): a merge of
    /// hundreds of sources holds no connection for a source it is not reading.
    func closeIdleReaders() {
        lock.lock()
        let closing = idle
        idle.removeAll()
        lock.unlock()
        for pooled in closing { pooled.reader.roles.consistentReads?.releaseHeldReads() }
    }

    private func borrow() throws -> PooledReader {
        lock.lock()
        if let pooled = idle.popLast() {
            lock.unlock()
            return pooled
        }
        lock.unlock()
        return PooledReader(reader: try makeReader())
    }

    private func giveBack(_ pooled: PooledReader) {
        lock.lock()
        defer { lock.unlock() }
        if idle.count < Self.pooledReaders {
            idle.append(pooled)
        } else {
            pooled.reader.roles.consistentReads?.releaseHeldReads()
        }
    }
}
