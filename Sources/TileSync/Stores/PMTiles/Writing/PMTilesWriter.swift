import Foundation

/// Writes a clustered PMTiles v3 archive, whatever order the tiles come in, in memory that does
/// not grow with the archive, to a temporary file that is renamed into place, or, for `s3://`,
/// uploaded as one object (`PMTilesUploadTarget`) and then deleted. Equal blobs are stored once
/// and runs of equal tiles are one entry.
///
/// The layout is a `PMTilesWriteStrategy`: while tiles come in ascending tile-ID order (an
/// MBTiles with a unique index, a PMTiles) they are written as they come, in one pass
/// (`PMTilesInOrderStrategy`). The first tile out of that order (a folder, a tar) hands the
/// tiles so far to `PMTilesCollectingStrategy`, which keeps records sorted on disk (the blobs
/// spooled, or reread from a source that offers them) and lays the archive out at `finish()`. Every header is built by `PMTilesHeaderBuilder`.
///
/// A repeated coordinate keeps its last tile. Errors: `.destinationExists` (without
/// `overwrite`), `.io` (disk full, permissions; the destination is then unchanged).
final class PMTilesWriter: TileWriter {
    public let location: TileStoreLocation
    private let temporaryPath: String
    private let folder: String
    private let upload: PMTilesUploadTarget?
    private var strategy: (any PMTilesWriteStrategy)?
    private var rereader: (any TileColumnRereading)?
    private var metadata = TileMetadata()
    private var format = SniffedTileFormat(.unknown)
    private var isFinished = false
    private(set) var repeatCounts: BlobCounts?
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
            AtomicFile.removeStaleSystemTemporaries()
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
    public var deduplication: TileStoreCapabilities.Deduplication { .storesEachBlobOnce }
    public var preferredOrder: TileOrder { .tileID }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        self.metadata = metadata
        self.format = format
        let metadataBytes = try GzipCodec.compress(PMTilesMetadataMapping.encode(metadata).json, level: 9)
        do {
            strategy = try PMTilesInOrderStrategy(path: temporaryPath, folder: folder, metadata: metadataBytes,
                                                  recentBlobLimit: recentBlobLimit)
        } catch {
            throw error.storeError(store: location.address)
        }
    }

    /// It finds repeats itself while it lays the archive out, rereads blobs from a source
    /// that offers it instead of spooling them, and joins whole archives whose tile-ID ranges do
    /// not overlap (`PMTilesJoin`).
    public var abilities: TileWriterAbilities {
        TileWriterAbilities(repeatCounts: { self.repeatCounts }, rereadsBlobs: { self.rereader = $0 },
                            joinsStores: { try self.prepareJoin($0, metadata: $1) })
    }

    private func prepareJoin(_ parts: [TileStoreLocation], metadata: TileMetadata) throws -> StoreJoinPlan? {
        guard strategy == nil, let join = try PMTilesJoin.plan(parts) else { return nil }
        self.metadata = metadata
        strategy = PMTilesJoinStrategy(join: join, metadata: metadata, folder: folder)
        return StoreJoinPlan(tilesPerPart: join.tilesPerPart, tileBytes: Int(join.tileBytes))
    }

    public func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws {
        let hash = hash == .unknown ? ContentHash(of: tile.data) : hash
        do {
            guard var strategy else { throw TileStoreError(.unsupported, store: location.address, message: "write before begin") }
            let id = TileID.id(of: tile.coordinate)
            if !strategy.accepts(id) { strategy = try takeOver(from: strategy) }
            try strategy.add(tile, id: id, hash: hash)
        } catch let error as POSIXFileError {
            throw error.storeError(store: location.address, item: "tile \(tile.coordinate)")
        }
    }

    /// Goes on with a strategy that takes any order: the tiles so far are handed to it.
    private func takeOver(from current: any PMTilesWriteStrategy) throws -> any PMTilesWriteStrategy {
        let next = try PMTilesCollectingStrategy(folder: folder, rereader: rereader)
        try current.replay { tile, hash in try next.add(tile, id: TileID.id(of: tile.coordinate), hash: hash) }
        strategy = next
        return next
    }

    public func finish() throws {
        do {
            if isCancelled() { throw CancellationError() }
            guard let strategy else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
            let counts = try strategy.finish(metadata: metadata, format: format, to: temporaryPath, isCancelled: isCancelled)
            self.strategy = nil
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
            throw Self.storeError(error, store: location.address)
        }
    }

    private static func storeError(_ error: any Error, store: String) -> TileStoreError {
        switch error {
        case let error as POSIXFileError: error.storeError(store: store)
        case let error as TileStoreError: error
        case is CancellationError: TileStoreError(.interrupted, store: store, message: "interrupted; the destination was not changed")
        default: TileStoreError(.io, store: store, message: "\(error)")
        }
    }

    public func abort() {
        strategy = nil
        rereader = nil
        AtomicFile.remove(temporaryPath)
        isFinished = true
    }
}
