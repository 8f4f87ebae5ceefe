extension TilePatcher {
    /// How `TilePatcher.makePatch` compares the two stores and writes the patch.
    public struct Options: Sendable {
        /// Which tiles the patch covers (both stores are read through it).
        public var filter: TileFilter = .all
        /// Replace an existing patch file (`--force`).
        public var overwrite = false
        /// Leave invalid tiles out, counted, instead of stopping.
        public var skipInvalid = false
        /// Polled between tiles; true stops the run, leaving no patch behind.
        public var isCancelled: @Sendable () -> Bool = { false }

        /// Defaults: every tile, refuse an existing patch file.
        public init() {}
    }
}
