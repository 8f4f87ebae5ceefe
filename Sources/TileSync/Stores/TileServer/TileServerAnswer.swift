import Foundation

/// What a tile server answered for one tile: its bytes, that it has none there (404, 204 or
/// an empty body), or that the copy asked about is still current (304); each with the
/// answer's validators.
enum TileServerAnswer: Sendable {
    case tile(Data, TileServerValidators)
    case noTile(status: Int, TileServerValidators)
    case notModified(TileServerValidators)
}
