/// A sync state that holds a row no sync could have written (a coordinate off the grid, a size
/// that is no tile's): the sync drops the state, warns, and plans again without it.
struct SyncStateDamage: Error, CustomStringConvertible {
    /// The state file.
    let path: String
    /// What is wrong with the row.
    let reason: String

    /// The warning the sync reports.
    var description: String { "\(path): the sync state holds \(reason); it was ignored and will be rebuilt" }
}
