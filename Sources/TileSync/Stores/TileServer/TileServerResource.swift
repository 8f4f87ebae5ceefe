/// What holds a tile server source: the server itself, always there as far as TileSync can tell
/// before asking; read-only, so nothing to remove or recover.
struct TileServerResource: TileStoreLocation.Resource {
    let location: TileStoreLocation

    var exists: Bool { true }

    var identity: String { location.address }

    func removeStore() {}
}
