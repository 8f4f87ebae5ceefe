import Foundation

/// Writes a clustered PMTiles v3 archive, whatever order the tiles come in, in memory that does
/// not grow with the archive: tile bytes wait in a scratch file beside the destination, records
/// of them are sorted on disk (`PMTilesTileCollector`), and `finish()` writes header, root,
/// metadata, leaves and tile data (in tile-ID order, equal blobs once, runs of equal tiles as
/// one entry) to a temporary file that is renamed into place, or, for `s3://`, uploaded as one
/// object (`PMTilesUploadTarget`) and then deleted.
///
/// A repeated coordinate keeps its last tile. Errors: `.destinationExists` (without
/// `overwrite`), `.io` (disk full, permissions; the destination is then unchanged).
public final class PMTilesWriter: TileWriter, RepeatCountingWriter, SourceRereadingWriter {
    public let location: TileStoreLocation
    private let temporaryPath: String
    private let folder: String
    private let upload: PMTilesUploadTarget?
    private var collector: PMTilesTileCollector?
    private var rereader: (any TileColumnRereading)?
    private var metadata = TileMetadata()
    private var format = SniffedTileFormat(.unknown)
    private var isFinished = false
    private(set) var repeatCounts: BlobCounter.Counts?

    private let isCancelled: @Sendable () -> Bool

    /// Prepares to write an archive.
    /// - Parameters:
    ///   - overwrite: replace an existing file (`--force`).
    ///   - isCancelled: polled while `finish()` lays the archive out; true stops it with `.interrupted`.
    /// - Throws: `TileStoreError` `.destinationExists`.
    public init(location: TileStoreLocation, overwrite: Bool, isCancelled: @escaping @Sendable () -> Bool = { false }) throws(TileStoreError) {
        self.location = location
        self.isCancelled = isCancelled
        upload = try PMTilesUploadTarget.of(location)
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
        do {
            collector = try PMTilesTileCollector(folder: folder, rereader: rereader)
        } catch {
            throw error.storeError(store: location.address)
        }
    }

    func rereadBlobs(from source: any TileColumnRereading) {
        rereader = source
    }

    public func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws {
        guard let collector else { throw TileStoreError(.unsupported, store: location.address, message: "write before begin") }
        do {
            try collector.add(tile, hash: hash == .unknown ? ContentHash(of: tile.data) : hash)
        } catch {
            throw error.storeError(store: location.address, item: "tile \(tile.coordinate)")
        }
    }

    public func finish() throws {
        guard let collector else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
        do {
            let layout = try PMTilesArchiveAssembler.write(collector, metadata: metadata, format: format, to: temporaryPath,
                                                                      isCancelled: isCancelled)
            self.collector = nil
            rereader = nil
            if let upload {
                try upload.upload(from: temporaryPath)
                AtomicFile.remove(temporaryPath)
            } else {
                try AtomicFile.sync(path: temporaryPath)
                try AtomicFile.rename(temporaryPath, to: location.address)
            }
            var counts = BlobCounter.Counts()
            counts.duplicateTiles = layout.duplicateTiles
            counts.duplicateBytes = layout.duplicateBytes
            counts.repeated = layout.repeated
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
        collector = nil
        rereader = nil
        AtomicFile.remove(temporaryPath)
        isFinished = true
    }
}
