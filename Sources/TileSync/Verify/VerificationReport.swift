extension StoreVerifier {
    /// What `verify` found: problems counted per category with the first few of each kept,
    /// notes that are not problems, and what `--fix` repaired.
    public struct Report: Sendable {
        /// How many problems of one category are kept in full.
        public static let keptPerCategory = 10

        /// The store that was verified.
        public let store: TileStoreLocation
        /// Tiles read and checked.
        public internal(set) var tilesChecked = 0
        /// UTFGrids read and found to be grids.
        public internal(set) var gridsChecked = 0
        /// Problems found per category (all of them, not only the kept ones).
        public internal(set) var counts: [StoreVerifier.Problem.Category: Int] = [:]
        /// The first problems of each category, in the order found.
        public internal(set) var problems: [StoreVerifier.Problem] = []
        /// Observations that are not errors (missing optional metadata, hashes not stored).
        public internal(set) var notes: [String] = []
        /// What the first readable tile's bytes say it is.
        public internal(set) var sniffedFormat: SniffedTileFormat?
        /// Repairs made by `--fix`.
        public internal(set) var fixes: [String] = []
        /// Hears every problem as it is found, the ones past `keptPerCategory` too.
        var onProblem: (@Sendable (StoreVerifier.Problem) -> Void)?

        /// Problems found whose data is wrong (bad tiles, hashes, structure).
        public var problemCount: Int { counts.filter { !$0.key.isWarning }.values.reduce(0, +) }
        /// Warnings found: descriptions of the tiles that do not hold (metadata, a header's centre).
        public var warningCount: Int { counts.filter { $0.key.isWarning }.values.reduce(0, +) }
        /// True when no data problem was found (warnings and notes do not count).
        public var isClean: Bool { problemCount == 0 }

        mutating func record(_ problem: StoreVerifier.Problem) {
            let count = counts[problem.category, default: 0]
            counts[problem.category] = count + 1
            onProblem?(problem)
            if count < Self.keptPerCategory { problems.append(problem) }
        }

        /// Drops the problems of a category (after `--fix` repaired them).
        mutating func clear(_ category: StoreVerifier.Problem.Category) {
            counts[category] = nil
            problems.removeAll { $0.category == category }
        }
    }
}
