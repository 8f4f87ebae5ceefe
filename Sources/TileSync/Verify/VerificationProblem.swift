extension StoreVerifier {
    /// One thing `verify` found wrong with a store.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The kinds of problem `verify` reports, each counted apart.
        public enum Category: String, Sendable, CaseIterable {
            /// SQLite's integrity check failed.
            case integrity
            /// A tile is unusable: coordinate out of range, NULL or empty data.
            case invalidTile = "invalid tile"
            /// Tile bytes are not the format the metadata declares.
            case format
            /// A stored hash is not the MD5 of the bytes.
            case storedHash = "stored hash"
            /// `minzoom`, `maxzoom` or `bounds` contradict the tiles, or cannot be read; a header's
            /// description of the tiles (a PMTiles centre outside its zooms). A warning: the tiles
            /// are sound.
            case metadata
            /// `agg_tiles_hash` does not match the tiles.
            case aggregateHash = "agg_tiles_hash"
            /// A tile's content does not decode (`verify --deep`): a vector tile against the MVT
            /// 2.1 specification, a JSON tile, a PNG, JPEG or WebP image.
            case content

            /// True for what describes the tiles wrongly without the data being wrong: reported as
            /// a warning, and `verify` still succeeds.
            public var isWarning: Bool { self == .metadata }
        }

        /// What kind of problem it is.
        public let category: Category
        /// The tile, row or key concerned.
        public let item: String?
        /// What is wrong, with the values found.
        public let message: String
        /// `verify --fix` can repair it in this kind of store.
        public let isFixable: Bool

        public var description: String { (item.map { "\($0): " } ?? "") + message }
    }
}
