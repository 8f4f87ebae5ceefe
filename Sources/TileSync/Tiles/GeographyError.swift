/// Why a longitude, latitude, bounding box or zoom was rejected.
public enum GeographyError: Error, Equatable, Sendable, CustomStringConvertible {
    case longitudeOutOfRange(Double)
    case latitudeOutOfRange(Double)
    case southAboveNorth(south: Double, north: Double)
    case malformedBoundingBox(String)
    case zoomOutOfRange(Int)
    case emptySpan
    case malformedDistance(String)

    public var description: String {
        switch self {
        case .longitudeOutOfRange(let value): "longitude \(value) is out of range (-180...180)"
        case .latitudeOutOfRange(let value): "latitude \(value) is out of range (-90...90)"
        case .southAboveNorth(let south, let north): "south \(south) is above north \(north)"
        case .malformedBoundingBox(let text): "'\(text)' is not a bounding box W,S,E,N in degrees"
        case .zoomOutOfRange(let z): "zoom \(z) is out of range (0...\(TileCoordinate.maxZoom))"
        case .emptySpan: "the span must be larger than zero and finite"
        case .malformedDistance(let text): "'\(text)' is not a distance such as 500m or 2km (0 to 10000 km)"
        }
    }
}
