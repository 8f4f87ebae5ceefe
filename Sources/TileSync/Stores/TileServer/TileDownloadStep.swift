/// What a download does for one tile of its plan, from what the download state remembers.
enum TileDownloadStep: Sendable, Equatable {
    /// Take the remembered tile: fresh, or fetched by this (interrupted) download.
    case use(TileDownloadRecord)
    /// The server had no tile here, and that still holds.
    case skip
    /// Ask the server; conditionally with these validators when they are given.
    case ask(ifChanged: TileServerValidators?)
}
