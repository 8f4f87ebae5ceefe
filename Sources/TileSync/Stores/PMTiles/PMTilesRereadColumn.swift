/// One column of tiles (zoom, column) that a window of a PMTiles layout reads again from its source.
struct PMTilesRereadColumn: Hashable {
    let z: Int
    let x: Int
}
