/// The table layouts of MBTiles files found in the wild.
enum MBTilesSchema: String, Sendable, CaseIterable {
    /// One `tiles` table (MBTiles 1.3).
    case flat
    /// `tiles_with_hash` table with an MD5 `tile_hash` column and a `tiles` view (martin).
    case flatWithHash = "flat-with-hash"
    /// `map` (coordinates -> `tile_id`) and `images` (`tile_id` -> bytes), usually with a
    /// `tiles` view joining them (TileMill, mbutil, node-mbtiles).
    case normalized
}
