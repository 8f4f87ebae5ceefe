import Foundation

/// The file behind a GeoPackage tile table: a table is one store, so existence, identity and
/// the sync state are the table's, while stamps, space and clean-up are the file's.
struct GeoPackageResource: TileStoreLocation.Resource {
    let address: GeoPackageAddress
    private let file: LocalFileResource
    /// The file named as the location was typed (`file.gpkg#table`), for the state files beside it.
    private let named: LocalFileResource

    init(location: TileStoreLocation) {
        address = GeoPackageAddress(location.address)
        file = LocalFileResource(path: address.path, isFolder: false) { path throws(TileStoreError) in
            SQLiteConnection.rollBackInterruptedWrite(path: path)
        }
        named = LocalFileResource(path: location.address, isFolder: false)
    }

    /// True when the file holds the table named, or any tile table when none is named; a file
    /// that is not a GeoPackage exists as it is.
    var exists: Bool {
        guard file.exists else { return false }
        guard GeoPackageStoreKind.isGeoPackage(path: address.path),
              let connection = try? SQLiteConnection(path: address.path, mode: .readOnly),
              let catalog = try? GeoPackageCatalog.read(connection: connection, store: address.path) else { return true }
        guard let table = address.table else { return !catalog.tileTables.isEmpty }
        return catalog.tileTables.contains { $0.table.lowercased() == table.lowercased() }
    }

    var identity: String { file.identity + (address.table.map { "#" + $0 } ?? "") }
    var versionStamp: String? { file.versionStamp }
    var syncStatePath: String? { named.syncStatePath }
    var downloadStatePath: String? { named.downloadStatePath }

    /// The same file, and the same table (or no table named on one side).
    func refersToSameStore(as other: any TileStoreLocation.Resource) -> Bool {
        guard let other = other as? GeoPackageResource else { return file.refersToSameStore(as: other) }
        guard file.refersToSameStore(as: other.file) else { return false }
        guard let table = address.table, let otherTable = other.address.table else { return true }
        return table.lowercased() == otherTable.lowercased()
    }

    func removeStaleTemporaries() { file.removeStaleTemporaries() }
    func removeOwnTemporaries() { file.removeOwnTemporaries() }
    func space(forTiles tiles: Int, tileBytes: Int) -> (needed: Int, available: Int)? { file.space(forTiles: tiles, tileBytes: tileBytes) }
    func recoverInterruptedUpdate() throws(TileStoreError) { try file.recoverInterruptedUpdate() }

    /// Drops the table (the file's other tables stay); a file left with no table is deleted.
    func removeStore() {
        guard let connection = try? SQLiteConnection(path: address.path, mode: .readWrite),
              let catalog = try? GeoPackageCatalog.read(connection: connection, store: address.path),
              let table = try? catalog.table(named: address.table, store: address.path) else { return }
        do {
            try connection.execute("BEGIN IMMEDIATE")
            try GeoPackageTileTable.drop(table.table, connection: connection)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
        }
    }
}
