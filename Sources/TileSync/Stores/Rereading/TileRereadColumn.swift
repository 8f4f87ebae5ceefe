/// One column of tiles (zoom, column) that a window of tile IDs reads again from its source (the
/// PMTiles layout, the MBTiles cursor in tile-ID order).
struct TileRereadColumn: Hashable {
    let z: Int
    let x: Int
}
