/// One change of a GeoPackage tile table, all or nothing: a transaction on a temporary file for a
/// new GeoPackage (no journal: nobody else sees it), renamed into place by `commit()`, or on the
/// file itself in its own journal. Writers and updaters differ only in how they find the table.
final class GeoPackageTableChange {
    /// The store as the user named it, for messages.
    let store: String
    private let path: String
    private var temporaryPath: String?
    private let metadata: TileMetadata
    private var connection: SQLiteConnection?
    private var table: GeoPackageTileTable?

    /// Starts the transaction (rolling back an interrupted write left in the file first) and
    /// lets `makeTable` create or open the table in it.
    /// - Throws: `TileStoreError` naming the store; nothing is left changed then.
    init(store: String, path: String, temporaryPath: String?, metadata: TileMetadata,
         makeTable: (SQLiteConnection) throws -> GeoPackageTileTable) throws {
        self.store = store
        self.path = path
        self.temporaryPath = temporaryPath
        self.metadata = metadata
        do {
            let connection: SQLiteConnection
            if let temporaryPath {
                connection = try SQLiteConnection(path: temporaryPath, mode: .readWriteCreate)
                try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; BEGIN")
            } else {
                SQLiteConnection.rollBackInterruptedWrite(path: path)
                connection = try SQLiteConnection(path: path, mode: .readWrite)
                try connection.execute("BEGIN IMMEDIATE")
            }
            self.connection = connection
            table = try makeTable(connection)
        } catch {
            rollback()
            throw Self.storeError(error, store: store, item: nil)
        }
    }

    deinit {
        rollback()
    }

    /// Adds or replaces a tile.
    func put(_ tile: Tile) throws {
        do {
            try openTable().put(tile)
        } catch {
            throw Self.storeError(error, store: store, item: "tile \(tile.coordinate)")
        }
    }

    /// Removes the tile at a coordinate.
    func remove(_ coordinate: TileCoordinate) throws {
        do {
            try openTable().remove(coordinate)
        } catch {
            throw Self.storeError(error, store: store, item: "tile \(coordinate)")
        }
    }

    /// Brings the table's catalog rows and metadata up to date, commits, and moves a new file into place.
    func commit() throws {
        do {
            let table = try openTable()
            try table.finish(metadata: metadata)
            try table.connection.execute("COMMIT")
            self.table = nil
            connection = nil
            if let temporaryPath {
                try AtomicFile.sync(path: temporaryPath)
                try AtomicFile.rename(temporaryPath, to: path)
                self.temporaryPath = nil
            }
        } catch {
            rollback()
            throw Self.storeError(error, store: store, item: nil)
        }
    }

    /// Drops everything not committed; the file stays as it was. Never throws.
    func rollback() {
        table = nil
        if connection != nil, temporaryPath == nil { try? connection?.execute("ROLLBACK") }
        connection = nil
        if let temporaryPath { AtomicFile.remove(temporaryPath) }
        temporaryPath = nil
    }

    private func openTable() throws(TileStoreError) -> GeoPackageTileTable {
        guard let table else { throw TileStoreError(.unsupported, store: store, message: "the change is over") }
        return table
    }

    /// Any failure of a write as a store error naming the item.
    static func storeError(_ error: any Error, store: String, item: String?) -> TileStoreError {
        switch error {
        case let error as TileStoreError: error
        case let error as SQLiteError: error.writingError(store: store, item: item)
        case let error as POSIXFileError: error.storeError(store: store)
        default: TileStoreError(wrapping: error, store: store)
        }
    }
}
