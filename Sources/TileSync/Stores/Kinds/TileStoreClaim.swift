extension TileStoreRegistry {
    /// How surely a kind recognises a location typed without a prefix; the registry takes the
    /// strongest claim (the first registered kind on a tie).
    public enum Claim: Int, Sendable, Comparable {
        /// Not this kind.
        case none
        /// This kind when nothing else claims it (a new path without a known name is a folder).
        case fallback
        /// The first bytes have this kind's signature.
        case content
        /// The name ends the way this kind's stores are named (`.mbtiles`).
        case name
        /// Nothing else can be meant: an existing folder, a URL scheme of this kind.
        case definite

        public static func < (lhs: TileStoreRegistry.Claim, rhs: TileStoreRegistry.Claim) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}
