/// A strategy asked for what it does not do: the collecting strategy takes every order, so
/// nothing ever takes over from it; the join strategy takes no tiles.
enum PMTilesWriteStrategyError: Error {
    case cannotReplay
    /// A tile was given to a writer that joins whole archives.
    case tileAfterJoin
}
