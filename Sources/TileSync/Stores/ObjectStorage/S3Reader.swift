import Foundation

/// Reads the tiles under an `s3://bucket/prefix`, laid out as a folder's (`PathTemplate`,
/// default `{z}/{x}/{y}.{ext}`, `metadata.json` at the prefix).
///
/// The listing (ListObjectsV2, several prefixes at once) gives every tile's size and, from
/// ETags that are MD5s, its hash, so a sync compares by content without downloading. Tiles
/// stream in no particular order with `transfers` GETs in flight; bytes are exactly as stored
/// (no HTTP layer decodes a gzipped tile).
///
/// Errors: `.notFound` (no such bucket, nothing under the prefix), `.invalidMetadata`,
/// `.invalidTile` (keys out of range, empty objects, changed bytes), `.io` (the server
/// refused or failed after retries, naming the key and status).
final class S3Reader: TileReader, StoreInspection {
    public let location: TileStoreLocation
    /// Its inspection: the details `info` shows of the prefix.
    public var roles: TileReaderRoles { TileReaderRoles(inspection: self) }
    /// The layout tiles are read at.
    public let template: PathTemplate
    private let store: S3TileStore
    private let cachedMetadata: TileMetadata

    /// Opens a store.
    /// - Throws: `TileStoreError`.
    init(store: S3TileStore) throws(TileStoreError) {
        self.store = store
        location = store.location
        if let metadata = try store.readMetadata() {
            cachedMetadata = metadata
        } else {
            guard try store.holdsObjects() else {
                throw TileStoreError(.notFound, store: location.address, message: "no objects under this prefix")
            }
            cachedMetadata = TileMetadata()
        }
        template = store.options.layout ?? TileTreeOptions.layout(declaredBy: cachedMetadata)
    }

    public var schemaDescription: String { template.text }
    /// Every tile read is a GET.
    public var traits: TileReaderTraits { TileReaderTraits(isRemote: true) }
    public var order: TileOrder { .unordered }

    public func metadata() throws -> TileMetadata { cachedMetadata }

    public func tiles(matching filter: TileFilter) throws -> any TileCursor {
        S3TileCursor(store: store, template: template, filter: filter)
    }

    /// Sizes and ETag MD5s from the listing; no object is downloaded.
    public func listing(matching filter: TileFilter) throws -> any TileIndexCursor {
        S3ListingCursor(store: store, template: template, filter: filter)
    }

    /// One GET per extension tried (the declared format's first).
    public func tile(at coordinate: TileCoordinate) throws -> Data? {
        for fileExtension in template.candidateExtensions(first: cachedMetadata.format?.fileExtension) {
            let key = store.address.key(template.path(for: coordinate, fileExtension: fileExtension))
            let data: Data?
            do {
                data = try store.client.object(key)
            } catch {
                throw store.storeError(error)
            }
            guard let data else { continue }
            guard !data.isEmpty else {
                throw TileStoreError(.invalidTile, store: location.address, item: "object \(key)", message: "empty object (0 bytes)")
            }
            return data
        }
        return nil
    }

    /// From the listing: byte counts cost nothing more.
    public func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        let listing = S3ListingCursor(store: store, template: template, filter: filter)
        var summary = TileSetSummary()
        while true {
            do {
                guard let entry = try listing.next() else { break }
                summary.add(entry.coordinate, size: entry.size)
            } catch let error as TileStoreError where error.kind == .invalidTile {
                continue
            }
        }
        return summary
    }

    public var details: [(label: String, value: String)] {
        let configuration = store.client.configuration
        return [("endpoint", configuration.endpoint.absoluteString), ("bucket", store.address.bucket),
                ("prefix", store.address.prefix.isEmpty ? "(whole bucket)" : store.address.prefix),
                ("region", configuration.region)]
    }
}
