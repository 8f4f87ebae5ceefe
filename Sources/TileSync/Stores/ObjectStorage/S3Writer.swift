import Foundation

/// Uploads a new store under an `s3://bucket/prefix`: one PUT per tile (`transfers` in flight),
/// each with `Content-MD5` so the server checks the bytes, its `Content-Type`, `Content-Encoding:
/// gzip` for gzipped tiles and the store's `Cache-Control`; `metadata.json` last, in `finish()`,
/// so a reader never takes a half-uploaded prefix for a finished one.
///
/// Object storage has no transactions: the store is complete when `finish()` returns. A prefix
/// that already holds objects is refused unless `overwrite` (objects not written stay; `sync
/// --delete` removes them) or the writer is one part of a sharded run. `abort()` of a store
/// that was empty deletes what was uploaded (never in a sharded run: the other parts share it).
///
/// Errors: `.destinationExists`, `.io` naming the key and the status after the retries.
final class S3Writer: TileWriter {
    public let location: TileStoreLocation
    private let store: S3TileStore
    private let template: PathTemplate
    private let queue: S3TransferQueue
    private var objectHeaders: S3ObjectHeaders
    private let wasEmpty: Bool
    private var metadata = TileMetadata()
    private var fileExtension = "bin"
    private var isFinished = false

    /// - Parameter sharesPrefix: other parts of a sharded run write into the same prefix.
    init(store: S3TileStore, overwrite: Bool, sharesPrefix: Bool = false) throws(TileStoreError) {
        self.store = store
        location = store.location
        template = store.options.layout ?? .xyz
        objectHeaders = S3ObjectHeaders(cacheControl: store.options.access.cacheControl)
        queue = S3TransferQueue(client: store.client, limit: store.transfers)
        let holdsObjects = sharesPrefix ? true : try store.holdsObjects()
        if holdsObjects && !overwrite && !sharesPrefix {
            throw TileStoreError(.destinationExists, store: location.address, message: "already holds objects",
                                 hint: "use --force to upload over them, or sync into it")
        }
        wasEmpty = !holdsObjects
    }

    deinit {
        if !isFinished { abort() }
    }

    public var wantsHashes: Bool { true }
    public var deduplication: TileStoreCapabilities.Deduplication { .none }
    public var preferredOrder: TileOrder { .unordered }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        fileExtension = format.format.fileExtension
        objectHeaders.declare(metadata)
        var metadata = metadata
        TileTreeOptions.record(template, in: &metadata)
        self.metadata = metadata
    }

    public func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws {
        let key = store.address.key(template.path(for: tile.coordinate, fileExtension: fileExtension))
        do {
            try queue.submit(S3Client.putRequest(key, body: tile.data, md5: hash, headers: objectHeaders.headers(for: tile.data)))
        } catch {
            throw store.storeError(error)
        }
    }

    public func finish() throws {
        do {
            try queue.wait()
            try store.putMetadata(metadata)
        } catch {
            throw store.storeError(error)
        }
        isFinished = true
    }

    public func abort() {
        guard !isFinished else { return }
        isFinished = true
        queue.drain()
        if wasEmpty { store.deleteEverything() }
    }
}
