extension RasterReencoder {
    /// What re-encoding did to the raster tiles of a run.
    public struct Tally: Sendable, Equatable {
        /// Tiles written re-encoded.
        public internal(set) var reencoded = 0
        /// Tiles whose re-encoding came out larger in their own format, written as they were.
        public internal(set) var keptSmaller = 0
        /// Fully transparent tiles not written (`dropEmpty`).
        public internal(set) var droppedEmpty = 0
        /// Bytes of the source tiles that were re-encoded or kept.
        public internal(set) var bytesBefore = 0
        /// Bytes of what was written for them.
        public internal(set) var bytesAfter = 0

        public init() {}

        mutating func add(_ other: RasterReencoder.Tally) {
            reencoded += other.reencoded
            keptSmaller += other.keptSmaller
            droppedEmpty += other.droppedEmpty
            bytesBefore += other.bytesBefore
            bytesAfter += other.bytesAfter
        }
    }
}
