import Foundation

/// Changes an `s3://` store in place for a sync: a PUT per tile put (as `S3Writer` writes them),
/// DeleteObjects in batches of 1,000 keys for removals (every extension TileSync reads, with an
/// `{ext}` layout), `metadata.json` last.
///
/// Each object changes atomically, the store as a whole does not: an interrupted sync leaves
/// some tiles new and some old, and the next sync (which compares by content) finishes the job.
///
/// Errors: `.io` naming the key and the status after the retries.
final class S3Updater: TileUpdater {
    public let location: TileStoreLocation
    private let store: S3TileStore
    private var template = PathTemplate.xyz
    private var fileExtension = "bin"
    private var metadata = TileMetadata()
    private var objectHeaders: S3ObjectHeaders
    private let queue: S3TransferQueue
    private var removals: [String] = []

    init(store: S3TileStore) {
        self.store = store
        location = store.location
        objectHeaders = S3ObjectHeaders(cacheControl: store.options.access.cacheControl)
        queue = S3TransferQueue(client: store.client, limit: store.transfers)
    }

    deinit {
        queue.drain()
    }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        fileExtension = format.format.fileExtension
        objectHeaders.declare(metadata)
        let existing = try store.readMetadata()
        template = store.options.layout ?? existing.map { TileTreeOptions.layout(declaredBy: $0) } ?? .xyz
        var metadata = metadata
        TileTreeOptions.record(template, in: &metadata)
        self.metadata = metadata
    }

    public func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws {
        let key = store.address.key(template.path(for: tile.coordinate, fileExtension: fileExtension))
        do {
            try queue.submit(S3Client.putRequest(key, body: tile.data, md5: hash, headers: objectHeaders.headers(for: tile.data)))
        } catch {
            throw store.storeError(error)
        }
    }

    public func remove(_ coordinate: TileCoordinate) throws {
        for fileExtension in template.candidateExtensions(first: fileExtension) {
            removals.append(store.address.key(template.path(for: coordinate, fileExtension: fileExtension)))
        }
        if removals.count >= 1000 { try flushRemovals() }
    }

    public func finish() throws {
        try flushRemovals()
        do {
            try queue.wait()
            try store.putMetadata(metadata)
        } catch {
            throw store.storeError(error)
        }
    }

    /// Each object changes on its own: puts and deletes sent before an abort stay made.
    public var commitsAtomically: Bool { false }

    public func abort() {
        removals.removeAll()
        queue.drain()
    }

    private func flushRemovals() throws {
        while !removals.isEmpty {
            let batch = Array(removals.prefix(1000))
            removals.removeFirst(batch.count)
            do {
                try queue.submit(S3Client.deleteRequest(batch)) { answer throws(S3Error) in try S3Client.checkDeleteAnswer(answer) }
            } catch {
                throw store.storeError(error)
            }
        }
    }
}
