/// The options of a PMTiles archive: those of object storage for an archive at `s3://`
/// (endpoint, requests in flight, `Cache-Control` of an archive written there); requests in
/// flight also for `http(s)://`. A local archive reads none.
public struct PMTilesStoreOptions: Sendable {
    /// The object-storage options (the layout among them is not read).
    public var objectStorage: S3StoreOptions

    /// The option names PMTiles archives read.
    public static let optionNames: Set<String> = S3StoreOptions.optionNames.subtracting([LayoutOption.name])
        .union([DeduplicationOption.name])

    /// Reads the options of a location.
    /// - Throws: `TileStoreError` `.invalidOptions` as `S3StoreOptions`.
    public init(_ options: TileStoreOptions, store: String) throws(TileStoreError) {
        objectStorage = try S3StoreOptions(options, store: store)
    }
}
