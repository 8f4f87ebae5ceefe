extension VectorTile {
    /// The geometry type of a feature.
    public enum GeometryType: UInt32, Sendable, Hashable {
        case unknown = 0
        case point = 1
        case lineString = 2
        case polygon = 3
    }
}
