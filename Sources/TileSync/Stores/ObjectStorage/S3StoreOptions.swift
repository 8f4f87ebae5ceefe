/// The options of an `s3://` store: the tile layout under the prefix (as a folder's) and how
/// S3 is reached (endpoint, requests in flight, `Cache-Control` of objects written).
struct S3StoreOptions: Sendable {
    /// The layout given; nil: from `metadata.json`'s `scheme`, else `{z}/{x}/{y}.{ext}`.
    var layout: PathTemplate?
    /// Endpoint, transfers, `Cache-Control`, or a configuration given in code.
    var access: S3AccessOptions

    /// The option names `s3://` stores read.
    static let optionNames: Set<String> = S3AccessOptions.optionNames.union([TileStoreOptions.Layout.name])

    /// Reads the options of a location.
    /// - Throws: `TileStoreError` `.invalidOptions` for transfers outside 1...1024.
    init(_ options: TileStoreOptions, store: String) throws(TileStoreError) {
        layout = options.layout
        access = try S3AccessOptions(options, store: store)
    }
}
