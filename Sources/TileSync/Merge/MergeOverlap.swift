/// How many sources a merge holds open at once at most, from the part of the merge's order
/// each covers: a listed source (sorted on disk, looked up throughout) is open from start to
/// end, a streamed one from its first tile to its last (to the end when its last is unknown),
/// an empty one never.
enum MergeOverlap {
    /// The part of the merge's order a source covers.
    enum Span: Equatable {
        case whole
        case empty
        case from(TileCoordinate, to: TileCoordinate?)
    }

    /// The most spans that cover one coordinate (a sweep over the spans' starts; a few
    /// thousand sources at most are compared pairwise).
    static func most(_ spans: [Span], order: TileOrder) -> Int {
        var whole = 0
        var bounded: [(first: TileCoordinate, last: TileCoordinate?)] = []
        for span in spans {
            switch span {
            case .whole: whole += 1
            case .empty: break
            case .from(let first, let last): bounded.append((first, last))
            }
        }
        var most = 0
        for start in bounded.map(\.first) {
            let covering = bounded.count { span in
                !order.precedes(start, span.first) && span.last.map { !order.precedes($0, start) } ?? true
            }
            most = max(most, covering)
        }
        return whole + most
    }
}
