/// A strategy asked for what it does not do: the collecting strategy takes every order, so
/// nothing ever takes over from them.
enum PMTilesWriteStrategyError: Error {
    case cannotReplay
}
