extension VectorTile {
    /// One feature: its optional id, geometry type, tags (pairs of indexes into the layer's
    /// keys and values) and geometry commands.
    public struct Feature: Sendable, Equatable {
        public var id: UInt64?
        public var type: GeometryType
        public var tags: [UInt32]
        /// Command integers and zigzag-encoded parameters, as the specification encodes them.
        public var geometry: [UInt32]

        public init(id: UInt64? = nil, type: GeometryType, tags: [UInt32] = [], geometry: [UInt32] = []) {
            self.id = id
            self.type = type
            self.tags = tags
            self.geometry = geometry
        }

        /// The geometry as sequences of absolute points in tile coordinates: one sequence a
        /// MoveTo (a point of a multipoint, a line, a ring without its repeated first point).
        /// - Throws: `VectorTile.DecodingError` when the commands do not fit the type.
        public func rings() throws(DecodingError) -> [[(x: Int64, y: Int64)]] {
            try VectorGeometry.decode(geometry, type: type)
        }
    }
}
