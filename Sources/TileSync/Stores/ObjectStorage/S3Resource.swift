import Foundation

/// What holds an `s3://` store: a bucket prefix on a server. Its sync state, which remembers the
/// MD5s of source tiles by size and modification time so that a no-op sync from a folder reads
/// no file, is a local cache file (`TILESYNC_CACHE`, else `$XDG_CACHE_HOME/tilesync`, else
/// `~/.cache/tilesync`), named by a hash of the store's identity; the bucket's listing is still
/// read on every sync, so changes made by others are seen. Leaves no temporary objects.
struct S3Resource: TileStoreLocation.Resource {
    let location: TileStoreLocation
    let store: S3TileStore?

    var exists: Bool { (try? store?.holdsObjects()) ?? false }

    /// The address with the endpoint, so that one bucket name on two servers is two stores.
    var identity: String {
        guard let store else { return location.address }
        return store.address.description + "@" + store.client.configuration.endpoint.absoluteString
    }

    var syncStatePath: String? {
        let environment = ProcessInfo.processInfo.environment
        let folder = environment["TILESYNC_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 + "/tilesync" }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/tilesync"
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return nil }
        let name = SHA256Digest.hex(Array(SHA256Digest.hash(Array(identity.utf8)).prefix(12)))
        return folder + "/s3-" + name + LocalFileResource.stateName
    }

    /// Beside the sync state, in the same cache folder.
    var downloadStatePath: String? {
        syncStatePath.map { String($0.dropLast(LocalFileResource.stateName.count)) + LocalFileResource.downloadsName }
    }

    func removeStore() {
        store?.deleteEverything()
    }

    /// Uploads are staged in the system's temporary folder.
    func removeOwnTemporaries() {
        AtomicFile.removeOwnTemporaries(in: NSTemporaryDirectory())
    }
}
