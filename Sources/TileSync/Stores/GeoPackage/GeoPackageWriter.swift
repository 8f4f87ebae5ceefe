import Foundation

/// Writes one tile table of a GeoPackage in the web quad tree's matrix set (EPSG:3857, zoom
/// levels numbered as z, matrices for the zooms written), with the metadata in
/// `gpkg_metadata`, the WebP extension row when tiles are WebP and the vector tiles extension's
/// rows for vector tiles.
///
/// A new file is built under a temporary name beside the destination and renamed into place by
/// `finish()`. An existing GeoPackage gets the table added in one transaction of its own journal,
/// its other tables untouched; a tile table of the same name is replaced only with `overwrite`
/// (`--force`), and a table of another kind never. `abort()` leaves the file as it was.
///
/// Errors: `.destinationExists`, `.invalidTile` (a tile outside the table's matrix), `.io`.
final class GeoPackageWriter: TileWriter {
    let location: TileStoreLocation
    private let address: GeoPackageAddress
    private let overwrite: Bool
    /// The temporary file of a new GeoPackage; nil when the table goes into an existing one.
    private let temporaryPath: String?
    private var change: GeoPackageTableChange?

    /// Prepares to write `location`.
    /// - Throws: `.destinationExists` when a file that is not a GeoPackage is there and
    ///   `overwrite` is false.
    init(location: TileStoreLocation, overwrite: Bool) throws(TileStoreError) {
        self.location = location
        self.overwrite = overwrite
        address = GeoPackageAddress(location.address)
        if AtomicFile.exists(address.path), GeoPackageStoreKind.isGeoPackage(path: address.path) {
            temporaryPath = nil
        } else {
            try AtomicFile.refuseExisting(address.path, overwrite: overwrite)
            temporaryPath = AtomicFile.temporaryPath(beside: address.path)
        }
    }

    var wantsHashes: Bool { false }
    var deduplication: TileStoreCapabilities.Deduplication { .none }
    var preferredOrder: TileOrder { .zoomColumnRow }

    func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        change = try GeoPackageTableChange(store: location.address, path: address.path, temporaryPath: temporaryPath, metadata: metadata) { connection in
            try GeoPackageTileTable.create(connection: connection, table: tableName(connection), format: format, replacing: overwrite,
                                           store: location.address)
        }
    }

    func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws {
        guard let change else { throw TileStoreError(.unsupported, store: location.address, message: "write before begin") }
        try change.put(tile)
    }

    func finish() throws {
        guard let change else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
        try change.commit()
        self.change = nil
    }

    func abort() {
        change?.rollback()
        change = nil
        if let temporaryPath { AtomicFile.remove(temporaryPath) }
    }

    /// The table named in the location; else the file's only tile table; else one named after the file.
    private func tableName(_ connection: SQLiteConnection) throws -> String {
        if let name = address.table { return name }
        if temporaryPath == nil {
            try connection.execute(GeoPackageSchema.coreTables)
            let catalog = try GeoPackageCatalog.read(connection: connection, store: location.address)
            if catalog.tileTables.count > 1 { _ = try catalog.table(named: nil, store: location.address) }
            if let only = catalog.tileTables.first { return only.table }
        }
        return Self.defaultTableName(forFile: address.path)
    }

    /// The table a new file's tiles go to: its name without the extension, as GDAL names it,
    /// reduced to letters, digits and underscores (`tiles` when nothing is left).
    static func defaultTableName(forFile path: String) -> String {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let name = String(stem.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        guard let first = name.first, first.isLetter, !name.lowercased().hasPrefix("gpkg") else { return "tiles" }
        return name
    }
}
