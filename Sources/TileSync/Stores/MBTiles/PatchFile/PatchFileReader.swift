import Foundation

/// A patch file in martin's diff format, opened read-only: an SQLite file in any MBTiles schema
/// (flat `tiles`, `tiles_with_hash`, normalized `map`/`images`) whose tile rows are the tiles to
/// put, with NULL `tile_data` for tiles to delete, and whose metadata rows are keys to set (NULL:
/// remove the key), besides the aggregate hashes of the store before and after it is applied.
/// Binary patches (martin's `bsdiffraw`, `bsdiffrawgz`) are refused as unsupported.
///
/// Errors name the file: `.notFound`, `.notATileStore` (not SQLite, no tile table), `.corrupt`
/// (a hash that is not hex MD5), `.unsupported` (binary patches, another hash algorithm).
final class PatchFileReader {
    /// The patch file.
    let path: String
    private let connection: SQLiteConnection
    /// A table or sub-select with the four tile columns, deletions included.
    private let rowSource: String
    /// The rows that change the store's metadata (a NULL value removes the key).
    let metadataChanges: TileMetadata
    /// The store's aggregate hash the patch was made against, when it says.
    let beforeHash: ContentHash?
    /// The store's aggregate hash once patched, when it says.
    let afterHash: ContentHash?
    /// The key `afterHash` was read from (older `mbtiles` versions spelled it differently).
    let afterKey: String?

    /// Opens the patch and reads its metadata.
    init(path: String) throws(TileStoreError) {
        self.path = path
        guard AtomicFile.exists(path) else {
            throw TileStoreError(.notFound, store: path, message: "no such patch file")
        }
        do {
            connection = try SQLiteConnection(path: path, mode: .readOnly)
            let names = Set(try connection.rows("SELECT lower(name) FROM sqlite_master WHERE type IN ('table', 'view')")
                .compactMap { $0[0] })
            if let binary = PatchMetadataKeys.binaryPatchTables.first(where: names.contains) {
                throw TileStoreError(.unsupported, store: path, item: "table \(binary)",
                                     message: "holds binary tile differences (martin's --patch-type bin-diff), which TileSync does not apply",
                                     hint: "make a whole-tile patch: `tilesync diff A B --patch P` or `mbtiles diff --patch-type whole`")
            }
            rowSource = try Self.rowSource(connection, path: path)
            var metadata = TileMetadata()
            if names.contains("metadata") {
                let statement = try connection.prepare("SELECT name, value FROM metadata WHERE name IS NOT NULL ORDER BY rowid")
                while try statement.step() {
                    guard let name = statement.text(at: 0) else { continue }
                    if let value = statement.text(at: 1) { metadata[name] = value } else { metadata.setNull(name) }
                }
            }
            if let algorithm = metadata[PatchMetadataKeys.hashAlgorithm], algorithm.lowercased() != "md5" {
                throw TileStoreError(.unsupported, store: path, item: "metadata \(PatchMetadataKeys.hashAlgorithm)",
                                     message: "is '\(algorithm)'; TileSync checks agg_tiles_hash with MD5 only")
            }
            beforeHash = try Self.hash(metadata, key: PatchMetadataKeys.before, path: path)
            let afterKey = ([PatchMetadataKeys.after] + PatchMetadataKeys.olderAfter).first { metadata[$0] != nil }
            self.afterKey = afterKey
            afterHash = try afterKey.flatMap { key throws(TileStoreError) in try Self.hash(metadata, key: key, path: path) }
            metadataChanges = TileMetadata(metadata.entries.filter { !PatchMetadataKeys.bookkeeping.contains($0.key) })
        } catch let error as TileStoreError {
            throw error
        } catch let error as SQLiteError {
            throw MBTilesCatalog.openError(error, store: path)
        } catch {
            throw TileStoreError(wrapping: error, store: path)
        }
    }

    /// The rows in (zoom_level, tile_column, tile_row) order, the order of the aggregate hash.
    func changes() throws(TileStoreError) -> PatchChangeCursor {
        do {
            let statement = try connection.prepare(
                "SELECT zoom_level, tile_column, tile_row, tile_data FROM \(rowSource) ORDER BY zoom_level, tile_column, tile_row")
            return PatchChangeCursor(statement: statement, path: path)
        } catch {
            throw TileStoreError(.corrupt, store: path, message: "cannot read the tile rows: \(error.message)")
        }
    }

    /// How many rows put a tile and how many delete one.
    func counts() throws(TileStoreError) -> (puts: Int, deletions: Int) {
        do {
            let row = try connection.rows("SELECT count(*), coalesce(sum(tile_data IS NULL), 0) FROM \(rowSource)").first
            let total = row?[0].flatMap { Int($0) } ?? 0, deletions = row?[1].flatMap { Int($0) } ?? 0
            return (total - deletions, deletions)
        } catch {
            throw TileStoreError(.corrupt, store: path, message: "cannot read the tile rows: \(error.message)")
        }
    }

    /// The bytes of the first tile the patch puts, or nil when it only deletes.
    func firstTileData() throws(TileStoreError) -> Data? {
        do {
            let statement = try connection.prepare("SELECT tile_data FROM \(rowSource) WHERE tile_data IS NOT NULL LIMIT 1")
            return try statement.step() ? statement.blob(at: 0) : nil
        } catch {
            throw TileStoreError(.corrupt, store: path, message: "cannot read the tile rows: \(error.message)")
        }
    }

    /// The patch's rows, deletions included, from the schema `MBTilesCatalog` finds.
    private static func rowSource(_ connection: SQLiteConnection, path: String) throws(TileStoreError) -> String {
        do throws(TileStoreError) {
            return try MBTilesCatalog(connection: connection, store: path).tileSourceKeepingMissingImages
        } catch {
            guard error.kind == .notATileStore else { throw error }
            throw TileStoreError(.notATileStore, store: path, item: error.item, message: "not a patch file: \(error.message)",
                                 hint: "make one with `tilesync diff A B --patch P`")
        }
    }

    private static func hash(_ metadata: TileMetadata, key: String, path: String) throws(TileStoreError) -> ContentHash? {
        guard let text = metadata[key] else { return nil }
        guard text.count == 32, let hash = ContentHash(hex: text) else {
            throw TileStoreError(.corrupt, store: path, item: "metadata \(key)", message: "'\(text)' is not an MD5 in hex")
        }
        return hash
    }
}
