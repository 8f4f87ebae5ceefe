import Synchronization

/// The tally of a merge's newest stream, shared by copies of its kind.
final class LatestTally: Sendable {
    private let tally = Mutex<MergedStoreKind.Tally?>(nil)

    var value: MergedStoreKind.Tally? {
        get { tally.withLock { $0 } }
        set { tally.withLock { $0 = newValue } }
    }
}
