import Foundation

/// What a tile server answered for one tile: its bytes, or that it has none there (404, 204
/// or an empty body).
enum TileServerAnswer: Sendable {
    case tile(Data)
    case noTile(status: Int)
}
