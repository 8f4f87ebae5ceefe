import Foundation

/// What holds a PMTiles archive at `s3://` or `http(s)://`: one object. It exists when the
/// server has it (a HEAD request to S3, the first range of a URL); a sync into it keeps no
/// state (it is rewritten when anything changed).
struct PMTilesRemoteResource: TileStoreLocation.Resource {
    let location: TileStoreLocation

    var exists: Bool {
        do {
            if let target = try PMTilesUploadTarget.of(location, options: PMTilesStoreOptions(location.options, store: location.address)) { return try target.exists() }
        } catch {
            if error.kind != .unsupported { return false }
        }
        return (try? PMTilesReader(location: location)) != nil
    }

    var identity: String { location.address }

    func removeStore() {
        guard let target = try? PMTilesUploadTarget.of(location, options: PMTilesStoreOptions(location.options, store: location.address)) else { return }
        _ = try? target.client.send(S3Request("DELETE", key: target.key), accepting: [404])
    }

    /// Uploads are staged in the system's temporary folder.
    func removeOwnTemporaries() {
        AtomicFile.removeOwnTemporaries(in: NSTemporaryDirectory())
    }
}
