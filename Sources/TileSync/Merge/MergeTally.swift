import Synchronization

/// What a merge did, counted while it streams: tiles each source gave, and coordinates that
/// several sources held (with equal bytes, or decided by the policy).
public final class MergeTally: Sendable {
    private struct Counts {
        var given: [Int]
        var heldAlike = 0
        var decided = 0
    }

    private let counts: Mutex<Counts>

    init(sources: Int) {
        counts = Mutex(Counts(given: Array(repeating: 0, count: sources)))
    }

    /// Tiles each source gave to the merge, in the sources' order.
    public var tilesGiven: [Int] { counts.withLock { $0.given } }
    /// Coordinates several sources held with the same bytes.
    public var heldAlike: Int { counts.withLock { $0.heldAlike } }
    /// Coordinates several sources held with different bytes, decided by the policy.
    public var decidedByPolicy: Int { counts.withLock { $0.decided } }

    /// Counts `tiles` given by one source that no other source holds (a join of whole stores).
    func record(given tiles: Int, bySource source: Int) {
        counts.withLock { $0.given[source] += tiles }
    }

    func record(winner: Int, holders: Int, alike: Bool) {
        counts.withLock { counts in
            counts.given[winner] += 1
            if holders > 1 { alike ? (counts.heldAlike += 1) : (counts.decided += 1) }
        }
    }
}
