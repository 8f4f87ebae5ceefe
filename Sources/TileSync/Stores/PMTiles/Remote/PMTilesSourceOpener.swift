import Foundation

/// Opens the bytes of an archive by its address: `s3://bucket/key` and `http(s)://` URLs with
/// range requests, anything else as a local file.
enum PMTilesSourceOpener {
    /// True for the addresses read with range requests.
    static func isRemote(_ address: String) -> Bool {
        guard let scheme = TileStoreRegistry.Candidate.urlScheme(of: address) else { return false }
        return ["s3", "http", "https"].contains(scheme)
    }

    /// The S3 client and key of an `s3://bucket/key` archive.
    /// - Throws: `TileStoreError` `.notATileStore` (no key), `.invalidOptions` (no credentials).
    static func s3Object(_ address: String, options: PMTilesStoreOptions) throws(TileStoreError) -> (client: S3Client, key: String) {
        let parsed = try S3StoreAddress(parsing: address)
        guard !parsed.prefix.isEmpty else {
            throw TileStoreError(.notATileStore, store: address, message: "names a bucket, not an archive (s3://bucket/name.pmtiles)")
        }
        let configuration = try options.access.resolvedConfiguration(store: address)
        return (S3Client(configuration: configuration, bucket: parsed.bucket), parsed.prefix)
    }

    /// The archive at `address`, opened.
    /// - Throws: `TileStoreError` `.notFound`, `.notATileStore`, `.invalidOptions`, `.io`.
    static func open(_ address: String, options: PMTilesStoreOptions) throws(TileStoreError) -> PMTilesArchive {
        guard let scheme = TileStoreRegistry.Candidate.urlScheme(of: address), isRemote(address) else {
            return try PMTilesArchive(path: address, store: address)
        }
        let fetcher: any ByteRangeFetching
        if scheme == "s3" {
            let (client, key) = try s3Object(address, options: options)
            fetcher = S3RangeFetcher(client: client, key: key)
        } else {
            guard let url = URL(string: address), url.host != nil else {
                throw TileStoreError(.notATileStore, store: address, message: "is not a URL")
            }
            fetcher = HTTPRangeFetcher(url: url, transfers: options.access.transfers)
        }
        return try PMTilesArchive(source: PMTilesRemoteFile(fetcher: fetcher, store: address), store: address)
    }
}
