/// Where a merged tile came from: the source (by position) whose bytes it is, and whether
/// several sources held its coordinate and how that was decided. A group merge keeps it with
/// each tile (`MergeRuns`), so that merging the groups decides and counts as one merge of all
/// the sources would.
struct MergeOrigin: Equatable {
    /// How a coordinate was held.
    enum Holding: UInt8 {
        /// By one source.
        case single
        /// By several, with the same bytes.
        case alike
        /// By several with different bytes, decided by the policy.
        case decided
        /// By several with different bytes under `abort` (`conflictingSource` differs from
        /// `source`): a group merge records it, the final merge stops at it.
        case conflict
        /// By several whose listed sizes did not tell them apart, decided by the policy without
        /// reading the bytes to compare them (`ignore` and `override` unless asked to compare).
        case uncompared
    }

    /// The source the tile counts for: the one whose bytes won, the first of those holding
    /// them alike.
    let source: Int
    let holding: Holding
    /// The last source holding the tile's bytes (it wins under `override` when the tile meets
    /// other bytes later).
    let lastSource: Int
    /// Under `.conflict`, the first source whose bytes differ from `source`'s; else -1.
    let conflictingSource: Int
    /// The size in bytes the holders' listings gave, all that gave one agreeing; nil when none
    /// did (a source that reads tiles only when asked lists none) or they differ (then
    /// `holding` says so). Two listed sizes that differ tell different bytes without reading
    /// them, in a group merge as in the merge of its groups.
    let listedSize: Int?

    init(source: Int, holding: Holding = .single, lastSource: Int? = nil, conflictingSource: Int = -1, listedSize: Int? = nil) {
        self.source = source
        self.holding = holding
        self.lastSource = lastSource ?? source
        self.conflictingSource = conflictingSource
        self.listedSize = listedSize
    }
}
