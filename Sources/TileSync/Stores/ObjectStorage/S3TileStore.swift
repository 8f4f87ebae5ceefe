import Foundation

/// What the reader, writer and updater of one `s3://` store share: its address, a client for
/// its bucket, the keys of tiles and metadata, and how S3 errors become store errors.
final class S3TileStore: Sendable {
    let location: TileStoreLocation
    let address: S3StoreAddress
    let options: S3StoreOptions
    let client: S3Client

    /// The key of the store's metadata.
    var metadataKey: String { address.key("metadata.json") }

    /// - Throws: `TileStoreError` for a bad address or when no credentials are found.
    init(location: TileStoreLocation, options: S3StoreOptions) throws(TileStoreError) {
        self.location = location
        self.options = options
        address = try S3StoreAddress(parsing: location.address)
        client = S3Client(configuration: try options.access.resolvedConfiguration(store: location.address), bucket: address.bucket)
    }

    /// Requests in flight at once.
    var transfers: Int { client.configuration.transfers }

    /// The store error for a failed request: missing buckets are `.notFound`, refused
    /// credentials say which key ID was refused, the rest is `.io`; the item is the key.
    func storeError(_ error: S3Error) -> TileStoreError {
        let item = error.key
        if error.code == "NoSuchBucket" {
            return TileStoreError(.notFound, store: location.address, message: "no such bucket '\(address.bucket)' at \(endpointText)")
        }
        if error.isAuthorization {
            return TileStoreError(.io, store: location.address, item: item,
                                  message: "\(endpointText) refused \(client.configuration.credentials): \(error.description)",
                                  hint: S3Error.credentialsHint)
        }
        return TileStoreError(.io, store: location.address, item: item, message: error.description)
    }

    private var endpointText: String { client.configuration.endpoint.absoluteString }

    /// The metadata in `metadata.json` (nil when there is none).
    /// - Throws: `TileStoreError` when it cannot be fetched or is not a JSON object.
    func readMetadata() throws(TileStoreError) -> TileMetadata? {
        let data: Data?
        do {
            data = try client.object(metadataKey)
        } catch {
            throw storeError(error)
        }
        guard let data else { return nil }
        guard data.count <= 16 << 20 else {
            throw TileStoreError(.invalidMetadata, store: location.address, item: "object \(metadataKey)", message: "larger than 16 MiB")
        }
        do {
            return try MetadataJSON.decode(data)
        } catch {
            throw TileStoreError(.invalidMetadata, store: location.address, item: "object \(metadataKey)", message: "not a JSON object: \(error)")
        }
    }

    /// Writes `metadata.json` (the last object of a write or sync).
    /// - Throws: `S3Error` after the retries.
    func putMetadata(_ metadata: TileMetadata) throws(S3Error) {
        let body = MetadataJSON.encode(metadata)
        _ = try client.send(S3Client.putRequest(metadataKey, body: body, md5: ContentHash(of: body),
                                                headers: ["Content-Type": "application/json"]))
    }

    /// True when any object is under the prefix.
    /// - Throws: `TileStoreError` when the listing fails.
    func holdsObjects() throws(TileStoreError) -> Bool {
        do {
            return try !client.listPage(prefix: address.listingPrefix, continuation: nil, maxKeys: 1).objects.isEmpty
        } catch {
            throw storeError(error)
        }
    }

    /// Deletes every object under the prefix (what an aborted new store leaves); errors are
    /// dropped. The prefix is listed again after each pass, up to three: a listing or a delete may
    /// fail, and an upload the client gave up on (a timeout) may still land after its key was
    /// deleted.
    func deleteEverything() {
        var passes = 1
        while deletionPass() > 0, passes < 3 { passes += 1 }
    }

    /// One listing of the prefix, every object found deleted; returns how many were found.
    private func deletionPass() -> Int {
        let lister = S3ParallelLister(client: client, prefix: address.listingPrefix, workers: 4)
        let queue = S3TransferQueue(client: client, limit: transfers)
        var keys: [String] = []
        var found = 0
        while let object = try? lister.next() {
            keys.append(object.key)
            found += 1
            if keys.count == 1000 {
                try? queue.submit(S3Client.deleteRequest(keys))
                keys.removeAll()
            }
        }
        if !keys.isEmpty { try? queue.submit(S3Client.deleteRequest(keys)) }
        queue.drain()
        return found
    }
}
