extension TileStoreLocation {
    /// What holds a store's tiles (a file, a folder, later a bucket prefix), for the questions the
    /// engines ask that are not about tiles: does it exist, has it changed, is it the same as
    /// another, where does the sync state go, and what did a killed run leave behind.
    public protocol Resource: Sendable {
        /// True when something exists at the location.
        var exists: Bool { get }
        /// A stable name for the store, the same however the location was typed (a canonical path).
        var identity: String { get }
        /// A text that changes whenever the store changes (size, time and inode of a file); nil when
        /// the store has nothing cheaper than its listing to tell (a folder).
        var versionStamp: String? { get }
        /// The local file where a sync into this store keeps its state, or nil when none is kept.
        var syncStatePath: String? { get }
        /// The local file where downloads into this store (from a tile server) keep the server's
        /// validators per tile and, while unfinished, the tiles fetched so far; nil when none is kept.
        var downloadStatePath: String? { get }
        /// True when `other` is the same store (also through another path to the same file).
        func refersToSameStore(as other: any TileStoreLocation.Resource) -> Bool
        /// Deletes temporary files that runs killed before they could clean up left for this store.
        func removeStaleTemporaries()
        /// Deletes the temporary files this process made for the store: for a run that must end at
        /// once (a second Ctrl-C) without its own clean-up, leaving the store as it was.
        func removeOwnTemporaries()
        /// Bytes that writing `tiles` tiles of `tileBytes` bytes in all would take, and the bytes free
        /// where they would go; nil when the resource cannot tell (object storage).
        func space(forTiles tiles: Int, tileBytes: Int) -> (needed: Int, available: Int)?
        /// Deletes the whole store (a private scratch copy when it is no longer needed).
        func removeStore()
        /// Completes or rolls back an update that a killed run left half done (a journal, a hot
        /// SQLite journal), so that readers see one consistent store.
        /// - Throws: `TileStoreError` when a committed change cannot be carried out.
        func recoverInterruptedUpdate() throws(TileStoreError)
    }
}

extension TileStoreLocation.Resource {
    public var versionStamp: String? { nil }
    public var syncStatePath: String? { nil }
    public var downloadStatePath: String? { nil }
    public func refersToSameStore(as other: any TileStoreLocation.Resource) -> Bool { identity == other.identity }
    public func removeStaleTemporaries() {}
    public func removeOwnTemporaries() {}
    public func space(forTiles tiles: Int, tileBytes: Int) -> (needed: Int, available: Int)? { nil }
    public func recoverInterruptedUpdate() throws(TileStoreError) {}
}
