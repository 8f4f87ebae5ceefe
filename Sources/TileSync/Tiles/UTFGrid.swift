public import Foundation

/// The UTFGrid of one tile coordinate, the interactivity layer of TileMill-era maps: one JSON
/// object with `grid` (rows of encoded characters), `keys` (the key of each character) and
/// `data` (each key's properties), as mb-util exports it to `{z}/{x}/{y}.grid.json`.
public struct UTFGrid: Sendable, Equatable {
    /// Where it belongs (XYZ row).
    public let coordinate: TileCoordinate
    /// The grid as compact JSON with its top-level and `data` members sorted by key
    /// (`UTFGridJSON`), so that equal grids have equal bytes whichever store they came from.
    public let json: Data

    /// A grid from JSON already in that form.
    init(coordinate: TileCoordinate, canonicalJSON json: Data) {
        self.coordinate = coordinate
        self.json = json
    }

    /// A grid from a `.grid.json` document (plain JSON or wrapped in a JSONP callback such as
    /// `grid({...});`).
    /// - Throws: `UTFGrid.FormatError` when it is not such an object.
    public init(coordinate: TileCoordinate, document: Data) throws(UTFGrid.FormatError) {
        self.coordinate = coordinate
        json = try UTFGridJSON.canonical(document: document)
    }
}
