import Foundation

/// Where a PMTiles archive written to `s3://bucket/key.pmtiles` goes: the archive is laid out in
/// a local temporary file, then uploaded as one object (`S3MultipartUpload`) that appears only
/// once complete, with `Content-Type: application/vnd.pmtiles` and the `Cache-Control` asked for.
struct PMTilesUploadTarget {
    let client: S3Client
    let key: String
    let store: String
    let cacheControl: String?

    /// The target of an `s3://` address; nil for any other.
    /// - Throws: `TileStoreError` `.unsupported` for `http(s)://` (read only), `.notATileStore`,
    ///   `.invalidOptions` (no credentials).
    static func of(_ location: TileStoreLocation, options: PMTilesStoreOptions) throws(TileStoreError) -> PMTilesUploadTarget? {
        let address = location.address
        guard PMTilesSourceOpener.isRemote(address) else { return nil }
        guard TileStoreRegistry.Candidate.urlScheme(of: address) == "s3" else {
            throw TileStoreError(.unsupported, store: address, message: "an archive at an http(s):// URL can be read, not written",
                                 hint: "write to a file or to s3://bucket/name.pmtiles")
        }
        let (client, key) = try PMTilesSourceOpener.s3Object(address, options: options)
        return PMTilesUploadTarget(client: client, key: key, store: address, cacheControl: options.access.cacheControl)
    }

    /// True when an object is at the key.
    /// - Throws: `TileStoreError` `.io` when the server cannot be asked.
    func exists() throws(TileStoreError) -> Bool {
        do {
            return try client.send(S3Request("HEAD", key: key), accepting: [404]).status != 404
        } catch {
            throw TileStoreError(.io, store: store, item: error.key, message: error.description)
        }
    }

    /// Uploads the archive laid out at `path`.
    /// - Throws: `TileStoreError` `.io` naming the object and the status.
    func upload(from path: String) throws(TileStoreError) {
        var headers = ["Content-Type": "application/vnd.pmtiles"]
        if let cacheControl { headers["Cache-Control"] = cacheControl }
        do {
            try S3MultipartUpload(client: client, key: key, headers: headers).upload(try RandomAccessFile(path: path))
        } catch let error as S3Error {
            let hint = error.isAuthorization ? S3Error.credentialsHint : nil
            throw TileStoreError(.io, store: store, item: error.key, message: error.description, hint: hint)
        } catch {
            throw TileStoreError(wrapping: error, store: store)
        }
    }
}
