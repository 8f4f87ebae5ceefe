import Foundation

/// Changes a PMTiles archive the only way its layout allows: the changes wait in a private
/// temporary SQLite table (bounded memory), then `finish()` writes a new archive with a
/// `PMTilesWriter` (every old tile not changed or removed, then the new ones) and renames it
/// over the old one. `abort()`, or an error, leaves the old archive as it was.
///
/// Errors: `.io` (disk full, permissions), `.corrupt` (the old archive cannot be read).
final class PMTilesUpdater: PendingChangesUpdater {
    public let location: TileStoreLocation
    private(set) var changes: PendingTileChanges?
    private var metadata = TileMetadata()
    private var format = SniffedTileFormat(.unknown)
    private var writer: PMTilesWriter?

    private let options: PMTilesStoreOptions?

    /// Prepares to change the archive at `location` (created at `finish()` when missing).
    /// - Parameter options: the archive's typed options; nil reads them from `location`.
    public init(location: TileStoreLocation, options: PMTilesStoreOptions? = nil) {
        self.location = location
        self.options = options
    }

    deinit {
        abort()
    }

    public func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        self.metadata = metadata
        self.format = format
        changes = try PendingTileChanges(store: location.address)
    }

    public func finish() throws {
        guard let changes else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
        do {
            let old = try existingArchive()
            let writer = try PMTilesWriter(location: location, options: options, overwrite: true)
            self.writer = writer
            try writer.begin(metadata: metadata, format: format)
            if let old {
                let cursor = try old.tiles(matching: .all)
                while let tile = try cursor.next() {
                    if try !changes.contains(tile.coordinate) { try writer.write(tile) }
                }
            }
            try changes.forEachPut { try writer.write($0) }
            try writer.finish()
        } catch {
            abort()
            throw TileStoreError(wrapping: error, store: location.address)
        }
        self.writer = nil
        self.changes = nil
    }

    public func abort() {
        writer?.abort()
        writer = nil
        changes = nil
    }

    /// The archive at `location`, nil when there is none yet.
    private func existingArchive() throws(TileStoreError) -> PMTilesReader? {
        do {
            return try PMTilesReader(location: location, options: options)
        } catch {
            if error.kind == .notFound { return nil }
            throw error
        }
    }
}
