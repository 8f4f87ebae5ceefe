import Foundation

/// What holds an `s3://` store: a bucket prefix on a server. Keeps no local sync state (the
/// listing's ETags are the quick check) and leaves no temporary objects.
struct S3Resource: TileStoreResource {
    let location: TileStoreLocation
    let store: S3TileStore?

    var exists: Bool { (try? store?.holdsObjects()) ?? false }

    /// The address with the endpoint, so that one bucket name on two servers is two stores.
    var identity: String {
        guard let store else { return location.address }
        return store.address.description + "@" + store.client.configuration.endpoint.absoluteString
    }

    func removeStore() {
        store?.deleteEverything()
    }
}
