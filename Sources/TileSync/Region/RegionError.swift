/// A region file that cannot be used: not JSON, not GeoJSON, or a shape TileSync refuses
/// (unclosed ring, crossing edges, a coordinate that is not a longitude/latitude).
public struct RegionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or name) the region was read from.
    public let file: String
    /// The feature or geometry, e.g. `feature 2 ("park"), polygon 1, ring 0`; empty for the file as a whole.
    public let item: String
    /// What is wrong.
    public let message: String

    public init(file: String, item: String = "", message: String) {
        self.file = file
        self.item = item
        self.message = message
    }

    /// `FILE: ITEM: MESSAGE`.
    public var description: String {
        item.isEmpty ? "\(file): \(message)" : "\(file): \(item): \(message)"
    }
}
