/// The options of a PMTiles archive: how S3 is reached for an archive at `s3://` (endpoint,
/// requests in flight, `Cache-Control` of an archive written there); requests in flight also
/// for `http(s)://`. A local archive reads none.
struct PMTilesStoreOptions: Sendable {
    /// Endpoint, transfers, `Cache-Control`, or a configuration given in code.
    var access: S3AccessOptions

    /// The option names PMTiles archives read.
    static let optionNames: Set<String> = S3AccessOptions.optionNames.union([TileStoreOptions.Deduplication.name])

    /// Reads the options of a location.
    /// - Throws: `TileStoreError` `.invalidOptions` as `S3AccessOptions`.
    init(_ options: TileStoreOptions, store: String) throws(TileStoreError) {
        access = try S3AccessOptions(options, store: store)
    }

    /// The options of `location`.
    /// - Throws: `TileStoreError` `.invalidOptions` as `S3AccessOptions`.
    static func of(_ location: TileStoreLocation) throws(TileStoreError) -> PMTilesStoreOptions {
        try PMTilesStoreOptions(location.options, store: location.address)
    }
}
