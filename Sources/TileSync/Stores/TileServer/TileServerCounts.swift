/// What a read of a tile server asked and was answered, for its notes.
struct TileServerCounts: Sendable {
    /// Requests answered.
    var requested = 0
    /// Answers with no tile (404, 204, 410, an empty body).
    var missing = 0
    /// 304 answers to conditional requests.
    var notModified = 0
    /// Tiles taken from the download state without a request.
    var reusedTiles = 0
    /// Holes the download state remembers, not asked again.
    var reusedHoles = 0

    /// One line per fact worth telling; none when nothing was read.
    var notes: [String] {
        var notes: [String] = []
        if requested > 0 {
            notes.append("\(requested) tiles asked for; the server had no tile for \(missing) of them (404, 204 or an empty body)")
        }
        if notModified > 0 { notes.append("\(notModified) of the tiles asked for were unchanged (304 Not Modified)") }
        if reusedTiles + reusedHoles > 0 {
            notes.append("\(reusedTiles) tiles and \(reusedHoles) places without a tile were not asked for again "
                         + "(still fresh by the server's Cache-Control or Expires, or fetched before an interruption)")
        }
        return notes
    }
}
