/// The role of a reader whose long operations can stop early (`TileReaderRoles.cancellation`):
/// an SQLite query polls the test, a remote read stops between requests.
protocol CancellableReading: AnyObject {
    /// Polls `isCancelled` inside long store operations, which then throw `TileStoreError` of
    /// kind `.interrupted`.
    func setCancellation(_ isCancelled: @escaping @Sendable () -> Bool)
}
