/// The role of a reader that can give several reads one view of the store
/// (`TileReaderRoles.consistentReads`): an MBTiles holds one SQLite read transaction, so a
/// writer's commit waits for it. Readers without the role read the store as it is each time.
protocol ConsistentReading: AnyObject {
    /// Runs `body` so that every read of this reader inside it sees the store as it was when
    /// `body` began.
    /// - Throws: what `body` throws, or `TileStoreError` when the view cannot be taken.
    func withConsistentReads<T>(_ body: () throws -> T) throws -> T

    /// Starts one view that the reads after it share until `releaseHeldReads()`, where that
    /// saves work per read; false, and nothing held, when it cannot.
    /// - Throws: `TileStoreError` when the view cannot be taken.
    func holdReads() throws -> Bool

    /// Ends what `holdReads()` started (nothing when nothing is held).
    func releaseHeldReads()

    /// Reads the store's file through a memory map of up to `bytes` from now on (SQLite's
    /// `mmap_size`): pages are read where the kernel caches them, with no copy and no call per
    /// page. A read of a page past the end of a file truncated in place meanwhile raises
    /// SIGBUS unless `MappedFileGuard` is installed.
    func readThroughMemoryMap(upTo bytes: Int)
}
