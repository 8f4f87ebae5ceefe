/// Opens readers and writers for a location, choosing the adapter by the location's kind.
public enum TileStores {
    /// Opens a store for reading.
    /// - Parameter layout: the path template of a folder or tar (nil: from its metadata, else
    ///   `{z}/{x}/{y}.{ext}`); ignored for MBTiles.
    /// - Throws: `TileStoreError` from the adapter.
    public static func openReader(_ location: TileStoreLocation, layout: PathTemplate? = nil) throws(TileStoreError) -> any TileReader {
        switch location.kind {
        case .mbtiles: try MBTilesReader(location: location)
        case .directory: try DirectoryReader(location: location, template: layout)
        case .tar:
            #if canImport(CTileSyncArchive)
            try TarReader(location: location, template: layout)
            #else
            throw tarUnsupported(location)
            #endif
        }
    }

    /// Prepares a writer for a new store.
    /// - Parameters:
    ///   - layout: path template of a folder or tar (default `{z}/{x}/{y}.{ext}`).
    ///   - fileExtension: the `{ext}` of folder and tar entries.
    ///   - mbtilesSchema: the table layout of an MBTiles destination.
    ///   - deduplicate: store repeated blobs of a folder or tar once, as hard links.
    ///   - preservesModificationTimes: a folder's files get their tiles' modification times.
    ///   - overwrite: replace an existing destination at the end.
    /// - Throws: `TileStoreError` `.destinationExists`.
    public static func makeWriter(_ location: TileStoreLocation, layout: PathTemplate = .xyz,
                                  fileExtension: String, mbtilesSchema: MBTilesSchema = .flat,
                                  deduplicate: Bool = false, preservesModificationTimes: Bool = false,
                                  overwrite: Bool) throws(TileStoreError) -> any TileWriter {
        switch location.kind {
        case .mbtiles:
            try MBTilesWriter(location: location, schema: mbtilesSchema, overwrite: overwrite)
        case .directory:
            try DirectoryWriter(location: location, template: layout, fileExtension: fileExtension,
                                deduplicate: deduplicate, preservesModificationTimes: preservesModificationTimes,
                                overwrite: overwrite)
        case .tar:
            #if canImport(CTileSyncArchive)
            try TarWriter(location: location, template: layout, fileExtension: fileExtension,
                          deduplicate: deduplicate, overwrite: overwrite)
            #else
            throw tarUnsupported(location)
            #endif
        }
    }

    /// Prepares to change an existing store in place (a tar need not exist yet).
    /// - Parameters:
    ///   - layout: path template of a folder or tar.
    ///   - fileExtension: the `{ext}` of tiles put in a folder or tar.
    /// - Throws: `TileStoreError` from the adapter.
    public static func makeUpdater(_ location: TileStoreLocation, layout: PathTemplate,
                                   fileExtension: String) throws(TileStoreError) -> any TileUpdater {
        switch location.kind {
        case .mbtiles: try MBTilesUpdater(location: location)
        case .directory: try DirectoryUpdater(location: location, template: layout, fileExtension: fileExtension)
        case .tar:
            #if canImport(CTileSyncArchive)
            TarUpdater(location: location, template: layout, fileExtension: fileExtension, oldTemplate: layout)
            #else
            throw tarUnsupported(location)
            #endif
        }
    }

    /// Tar archives need libarchive, which this platform's SDK lacks (iOS, tvOS, watchOS).
    static func tarUnsupported(_ location: TileStoreLocation) -> TileStoreError {
        TileStoreError(.unsupported, store: location.path, message: "tar archives are not supported on this platform (no libarchive)",
                       hint: "convert the archive to MBTiles or a folder on Linux or macOS")
    }
}
