/// One tile of a tile server read: fetched (or taken from the partial store) with its bytes,
/// or known from the download state by size and MD5 alone.
enum TileServerItem {
    case fetched(Tile, ContentHash?)
    case known(TileIndexEntry)
}
