import Synchronization

extension MergedStoreKind {
    /// What a merge did, counted while it streams: tiles each source gave, and coordinates that
    /// several sources held (with equal bytes, decided by the policy among different bytes, or
    /// decided without comparing bytes whose listed sizes did not tell them apart).
    public final class Tally: Sendable {
        private struct Counts {
            var given: [Int]
            var heldAlike = 0
            var decided = 0
            var uncompared = 0
            var followed = 0
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
        /// Coordinates several sources held with tiles whose listed sizes are the same or not
        /// listed (an MBTiles lists none), decided by the policy (`ignore`, `override`) without
        /// reading them to compare (`comparesDuplicates` reads them).
        public var decidedUncompared: Int { counts.withLock { $0.uncompared } }

        /// Counts `tiles` given by one source that no other source holds (a join of whole stores).
        func record(given tiles: Int, bySource source: Int) {
            counts.withLock { $0.given[source] += tiles }
        }

        /// Coordinates the merge followed one source through alone while others waited
        /// (`MergedTileCursor`'s shadowed runs).
        var followedAlone: Int { counts.withLock { $0.followed } }

        /// Counts coordinates that several sources held, decided by the policy without comparing
        /// (a shadowed run's losers, counted together when the run ends).
        func record(uncompared coordinates: Int) {
            counts.withLock { $0.uncompared += coordinates }
        }

        /// Counts the coordinates of a shadowed run.
        func record(followed coordinates: Int) {
            counts.withLock { $0.followed += coordinates }
        }

        /// Counts a merged tile: given by its origin's source, held once, alike or decided.
        func record(_ origin: MergeOrigin) {
            counts.withLock { counts in
                counts.given[origin.source] += 1
                switch origin.holding {
                case .single: break
                case .alike: counts.heldAlike += 1
                case .decided, .conflict: counts.decided += 1
                case .uncompared: counts.uncompared += 1
                }
            }
        }
    }
}
