/// The tiles of an `s3://` store from its listing: keys matched against the layout, sizes, and
/// MD5s from ETags that are MD5s (none are downloaded). Keys that do not fit the layout are
/// skipped and counted; `metadata.json` and `tiles.json` at the root are not tiles.
final class S3ListingCursor: TileIndexCursor {
    private let store: S3TileStore
    private let template: PathTemplate
    private let filter: TileFilter
    private let lister: S3ParallelLister
    private let prefixLength: Int
    private(set) var skipped = SkippedItems()

    init(store: S3TileStore, template: PathTemplate, filter: TileFilter) {
        self.store = store
        self.template = template
        self.filter = filter
        let prefix = store.address.listingPrefix
        prefixLength = prefix.utf8.count
        lister = S3ParallelLister(client: store.client, prefix: prefix, workers: min(8, store.transfers))
    }

    deinit {
        lister.stop()
    }

    /// The next entry; its `hash` is nil when the ETag is not an MD5.
    func next() throws -> TileIndexEntry? {
        try nextObject()?.entry
    }

    /// The next entry with its object key.
    func nextObject() throws -> S3ListedTile? {
        while true {
            let object: S3ObjectSummary?
            do {
                object = try lister.next()
            } catch {
                throw store.storeError(error)
            }
            guard let object else { return nil }
            if let listed = try listed(object) { return listed }
        }
    }

    private func listed(_ object: S3ObjectSummary) throws -> S3ListedTile? {
        guard object.key.utf8.count > prefixLength else { return nil }
        let relative = String(decoding: object.key.utf8.dropFirst(prefixLength), as: UTF8.self)
        if relative == "metadata.json" || relative == "tiles.json" { return nil }
        switch template.match(relative) {
        case .notATile:
            skipped.record("object \(object.key)", reason: "does not fit the layout \(template.text)")
            return nil
        case .invalid(let reason):
            throw TileStoreError(.invalidTile, store: store.location.address, item: "object \(object.key)", message: reason)
        case .tile(let coordinate, _):
            guard filter.contains(coordinate) else { return nil }
            if object.size == 0 {
                throw TileStoreError(.invalidTile, store: store.location.address, item: "object \(object.key)", message: "empty object (0 bytes)")
            }
            return S3ListedTile(entry: TileIndexEntry(coordinate: coordinate, size: object.size, hash: object.md5), key: object.key)
        }
    }
}
