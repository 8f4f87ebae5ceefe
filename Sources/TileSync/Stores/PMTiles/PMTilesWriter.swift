import Foundation

/// Writes a clustered PMTiles v3 archive, whatever order the tiles come in, in memory that does
/// not grow with the archive, to a temporary file that is renamed into place, or, for `s3://`,
/// uploaded as one object (`PMTilesUploadTarget`) and then deleted. Equal blobs are stored once
/// and runs of equal tiles are one entry.
///
/// While tiles come in ascending tile-ID order (an MBTiles with a unique index, a PMTiles), they
/// are written as they come, in one pass (`PMTilesInOrderWriter`). The first tile out of that
/// order (a folder, a tar) hands the tiles so far to `PMTilesTileCollector`, which keeps records
/// of them sorted on disk (and their bytes in a scratch file unless the source can be read
/// again), and `finish()` then lays the archive out (`PMTilesArchiveAssembler`). A blob that a
/// run in order stored twice (forgotten by the bounded table of recent blobs) loses its later
/// copies at the end (`PMTilesStoredTwiceRemoval`).
///
/// A repeated coordinate keeps its last tile. Errors: `.destinationExists` (without
/// `overwrite`), `.io` (disk full, permissions; the destination is then unchanged).
public final class PMTilesWriter: TileWriter {
    public let location: TileStoreLocation
    private let temporaryPath: String
    private let folder: String
    private let upload: PMTilesUploadTarget?
    private var inOrder: PMTilesInOrderWriter?
    private var collector: PMTilesTileCollector?
    private var rereader: (any TileColumnRereading)?
    private var metadata = TileMetadata()
    private var format = SniffedTileFormat(.unknown)
    private var isFinished = false
    private(set) var repeatCounts: BlobCounter.Counts?
    /// Distinct blobs the one-pass writer remembers for repeats (set before `begin`; tests).
    var recentBlobLimit = PMTilesRecentBlobs.defaultLimit

    private let isCancelled: @Sendable () -> Bool

    /// Prepares to write an archive.
    /// - Parameters:
    ///   - options: the archive's typed options; nil reads them from `location`.
    ///   - overwrite: replace an existing file (`--force`).
    ///   - isCancelled: polled while `finish()` lays the archive out; true stops it with `.interrupted`.
    /// - Throws: `TileStoreError` `.destinationExists`.
    public init(location: TileStoreLocation, options: PMTilesStoreOptions? = nil, overwrite: Bool,
                isCancelled: @escaping @Sendable () -> Bool = { false }) throws(TileStoreError) {
        self.location = location
        self.isCancelled = isCancelled
        let typed: PMTilesStoreOptions
        if let options { typed = options } else { typed = try PMTilesStoreOptions.of(location) }
        upload = try PMTilesUploadTarget.of(location, options: typed)
        if let upload {
            if !overwrite, try upload.exists() {
                throw TileStoreError(.destinationExists, store: location.address, message: "already exists", hint: "pass --force to replace it")
            }
            folder = NSTemporaryDirectory()
            temporaryPath = AtomicFile.temporaryPath(beside: (folder as NSString).appendingPathComponent("upload.pmtiles"))
        } else {
            try AtomicFile.refuseExisting(location.address, overwrite: overwrite)
            temporaryPath = AtomicFile.temporaryPath(beside: location.address)
            folder = URL(fileURLWithPath: location.address).deletingLastPathComponent().path
        }
    }

    deinit {
        if !isFinished { abort() }
    }

    /// Each tile's MD5 finds repeated blobs.
    public var wantsHashes: Bool { true }
    public var deduplication: TileDeduplication { .storesEachBlobOnce }
    public var preferredOrder: TileOrder { .tileID }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        self.metadata = metadata
        self.format = format
        let metadataBytes = try GzipCodec.compress(PMTilesMetadataMapping.encode(metadata).json, level: 9)
        do {
            inOrder = try PMTilesInOrderWriter(path: temporaryPath, folder: folder, metadata: metadataBytes,
                                               recentBlobLimit: recentBlobLimit)
        } catch {
            throw error.storeError(store: location.address)
        }
    }

    /// It finds repeats itself while it lays the archive out, and rereads blobs from a source
    /// that offers it instead of spooling them.
    public var abilities: TileWriterAbilities {
        TileWriterAbilities(repeatCounts: { self.repeatCounts }, rereadsBlobs: { self.rereader = $0 })
    }

    public func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws {
        let hash = hash == .unknown ? ContentHash(of: tile.data) : hash
        do {
            if let inOrder {
                let id = TileID.id(of: tile.coordinate)
                if inOrder.follows(id) {
                    try inOrder.add(tile.data, id: id, hash: hash)
                    return
                }
                try collectInstead()
            }
            guard let collector else { throw TileStoreError(.unsupported, store: location.address, message: "write before begin") }
            try collector.add(tile, hash: hash)
        } catch let error as POSIXFileError {
            throw error.storeError(store: location.address, item: "tile \(tile.coordinate)")
        }
    }

    /// Goes on with the collector: the tiles written in order so far are handed to it, and the
    /// file they were written to is deleted.
    private func collectInstead() throws {
        guard let inOrder else { return }
        let collector = try PMTilesTileCollector(folder: folder, rereader: rereader)
        try inOrder.replay { tile, hash in try collector.add(tile, hash: hash) }
        self.inOrder = nil
        AtomicFile.remove(temporaryPath)
        self.collector = collector
    }

    public func finish() throws {
        do {
            if isCancelled() { throw CancellationError() }
            var counts = BlobCounter.Counts()
            if let inOrder {
                try inOrder.endTileData()
                let mapped = PMTilesMetadataMapping.encode(metadata)
                _ = try inOrder.finish(metadata: metadata, format: format, bounds: mapped.bounds, center: mapped.center)
                counts.duplicateTiles = inOrder.runs.duplicateTiles
                counts.duplicateBytes = inOrder.runs.duplicateBytes
            } else {
                guard let collector else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
                let layout = try PMTilesArchiveAssembler.write(collector, metadata: metadata, format: format, to: temporaryPath,
                                                               isCancelled: isCancelled)
                counts.duplicateTiles = layout.runs.duplicateTiles
                counts.duplicateBytes = layout.runs.duplicateBytes
                counts.repeated = layout.repeated
            }
            inOrder = nil
            collector = nil
            rereader = nil
            if let upload {
                try upload.upload(from: temporaryPath)
                AtomicFile.remove(temporaryPath)
            } else {
                try AtomicFile.sync(path: temporaryPath)
                try AtomicFile.rename(temporaryPath, to: location.address)
            }
            repeatCounts = counts
            isFinished = true
        } catch {
            abort()
            switch error {
            case let error as POSIXFileError: throw error.storeError(store: location.address)
            case let error as TileStoreError: throw error
            case is CancellationError:
                throw TileStoreError(.interrupted, store: location.address, message: "interrupted; the destination was not changed")
            default: throw TileStoreError(.io, store: location.address, message: "\(error)")
            }
        }
    }

    public func abort() {
        inOrder = nil
        collector = nil
        rereader = nil
        AtomicFile.remove(temporaryPath)
        isFinished = true
    }
}
