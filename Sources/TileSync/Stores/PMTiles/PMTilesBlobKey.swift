/// Where a tile's bytes lie in the tile data section: what tells blobs apart.
struct PMTilesBlobKey: Hashable {
    let offset: UInt64
    let length: UInt32
}
