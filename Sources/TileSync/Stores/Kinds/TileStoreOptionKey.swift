extension TileStoreOptions {
    /// A typed option that some store kinds read from `TileStoreOptions`, declared once beside the
    /// kinds that use it (`TileStoreOptions.layout`, `.mbtilesSchema`, `.deduplicate`).
    public protocol Key {
        /// The value stored for the key.
        associatedtype Value: Sendable
        /// The option's name, as the command line spells it (`layout`, `mbtiles-schema`).
        static var name: String { get }
    }
}
