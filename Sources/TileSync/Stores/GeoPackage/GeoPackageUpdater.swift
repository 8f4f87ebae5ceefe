import Foundation

/// Changes one tile table of a GeoPackage in place inside one transaction of the file's own
/// journal (`BEGIN IMMEDIATE` ... `COMMIT`), so an interrupted sync leaves the file as it was;
/// the file's other tables are not touched. A table that does not exist yet is created in the
/// file; a file that does not exist yet is built under a temporary name and renamed into place
/// by `finish()`.
///
/// Errors: those of `GeoPackageReader` for the table's matrices, `.notATileStore` (a file that is
/// not a GeoPackage), `.invalidTile`, `.io`.
final class GeoPackageUpdater: TileUpdater {
    let location: TileStoreLocation
    private let address: GeoPackageAddress
    private var change: GeoPackageTableChange?

    init(location: TileStoreLocation) {
        self.location = location
        address = GeoPackageAddress(location.address)
    }

    func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        let temporaryPath = AtomicFile.exists(address.path) ? nil : AtomicFile.temporaryPath(beside: address.path)
        change = try GeoPackageTableChange(store: location.address, path: address.path, temporaryPath: temporaryPath, metadata: metadata) { connection in
            try openTable(connection, format: format, isNew: temporaryPath != nil)
        }
    }

    /// The table named, or the file's only tile table, opened as it is; else created.
    private func openTable(_ connection: SQLiteConnection, format: SniffedTileFormat, isNew: Bool) throws -> GeoPackageTileTable {
        if !isNew {
            guard GeoPackageStoreKind.isGeoPackage(path: address.path) else {
                throw TileStoreError(.notATileStore, store: location.address, message: "the file is not a GeoPackage; TileSync changes only GeoPackages in place")
            }
            try connection.execute(GeoPackageSchema.coreTables)
            let catalog = try GeoPackageCatalog.read(connection: connection, store: location.address)
            let named = catalog.tileTables.contains { $0.table.lowercased() == address.table?.lowercased() }
            if named || address.table == nil && !catalog.tileTables.isEmpty {
                return try GeoPackageTileTable.open(connection: connection, contents: catalog.table(named: address.table, store: location.address),
                                                    store: location.address)
            }
        }
        let name = address.table ?? GeoPackageWriter.defaultTableName(forFile: address.path)
        return try GeoPackageTileTable.create(connection: connection, table: name, format: format, replacing: false, store: location.address)
    }

    func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws {
        guard let change else { throw TileStoreError(.unsupported, store: location.address, message: "put before begin") }
        try change.put(tile)
    }

    func remove(_ coordinate: TileCoordinate) throws {
        guard let change else { throw TileStoreError(.unsupported, store: location.address, message: "remove before begin") }
        try change.remove(coordinate)
    }

    func finish() throws {
        guard let change else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
        try change.commit()
        self.change = nil
    }

    func abort() {
        change?.rollback()
        change = nil
    }
}
