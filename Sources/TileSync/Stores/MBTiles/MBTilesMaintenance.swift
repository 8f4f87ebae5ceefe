/// Work on an MBTiles file below the reader and writer protocols: rolling back a write a killed
/// run left (a hot journal), and the SQL that rebuilds stored hashes from the bytes.
enum MBTilesMaintenance {
    /// Rolls back an interrupted write (a hot journal beside the file) by opening the file for
    /// writing once, as every SQLite writer does on open. Read-only connections cannot do it.
    /// Errors are left to the next real open to report.
    static func recover(path: String) {
        SQLiteConnection.rollBackInterruptedWrite(path: path)
    }

    /// Statements that rewrite `tile_hash` (flat-with-hash) or `tile_id` (normalized, in `map`
    /// and `images`) where it is not the MD5 of the bytes; nil for flat files. They need
    /// `SQLiteConnection.registerMD5Function()` and a transaction around them.
    static func rebuildHashesSQL(_ schema: MBTilesSchema) -> String? {
        switch schema {
        case .flat:
            nil
        case .flatWithHash:
            """
            UPDATE tiles_with_hash SET tile_hash = tilesync_md5_hex(tile_data)
            WHERE tile_data IS NOT NULL AND tile_hash IS NOT tilesync_md5_hex(tile_data)
            """
        case .normalized:
            """
            CREATE TEMP TABLE tilesync_fix AS SELECT tile_id AS old, tilesync_md5_hex(tile_data) AS new
                FROM images WHERE tile_data IS NOT NULL AND tile_id IS NOT tilesync_md5_hex(tile_data);
            UPDATE map SET tile_id = (SELECT new FROM tilesync_fix WHERE old = map.tile_id)
                WHERE tile_id IN (SELECT old FROM tilesync_fix);
            UPDATE OR IGNORE images SET tile_id = (SELECT new FROM tilesync_fix WHERE old = images.tile_id)
                WHERE tile_id IN (SELECT old FROM tilesync_fix);
            DELETE FROM images WHERE tile_id IN (SELECT old FROM tilesync_fix);
            DROP TABLE tilesync_fix;
            """
        }
    }
}
