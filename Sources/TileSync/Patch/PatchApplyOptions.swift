extension TilePatcher {
    /// How `TilePatcher.apply` checks and applies a patch.
    public struct ApplyOptions: Sendable {
        /// Apply even when the store is not the one the patch was made for, or the result would
        /// not be the one it promises (`--force`): the mismatch becomes a warning.
        public var force = false
        /// Polled between tiles; true stops the run before the commit, leaving the store as it was.
        public var isCancelled: @Sendable () -> Bool = { false }
        /// Called with the number of the patch's changes made so far, every 1,024 and at the end.
        public var progress: (@Sendable (Int) -> Void)?

        /// Defaults: refuse a store the patch was not made for.
        public init() {}
    }
}
