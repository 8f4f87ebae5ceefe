/// The columns of one tile row that the cover sweep has marked, handed out as sorted runs.
/// Rows up to 65,536 columns are a bit per column (a detailed outline marks the same few
/// columns many times), wider rows a list of runs joined at the end.
struct RegionColumnMarks {
    private static let bitmapColumns = 1 << 16
    private let columns: Int
    private var words: [UInt64]
    private var lowWord = Int.max, highWord = -1
    private var spans: [ClosedRange<Int>] = []

    init(columns: Int) {
        self.columns = columns
        words = columns <= Self.bitmapColumns ? Array(repeating: 0, count: (columns + 63) / 64) : []
    }

    var isEmpty: Bool { highWord < 0 && spans.isEmpty }

    /// Marks `first...last`, clamped to the row; nothing when `first > last`.
    mutating func mark(_ first: Int, _ last: Int) {
        let first = max(0, first), last = min(columns - 1, last)
        guard first <= last else { return }
        guard !words.isEmpty else {
            spans.append(first...last)
            return
        }
        let firstWord = first >> 6, lastWord = last >> 6
        lowWord = min(lowWord, firstWord)
        highWord = max(highWord, lastWord)
        for word in firstWord...lastWord {
            let from = word == firstWord ? first & 63 : 0, to = word == lastWord ? last & 63 : 63
            let width = to - from + 1
            words[word] |= (width == 64 ? ~0 : ((1 << UInt64(width)) - 1)) << UInt64(from)
        }
    }

    /// The marked columns as sorted, joined runs; the marks are cleared.
    mutating func takeRuns() -> [ClosedRange<Int>] {
        guard !words.isEmpty else {
            defer { spans.removeAll(keepingCapacity: true) }
            return TileRegion.ZoomCover.joined(spans)
        }
        var runs: [ClosedRange<Int>] = []
        var start: Int?
        if highWord >= 0 {
            for word in lowWord...highWord {
                var bits = words[word]
                words[word] = 0
                var column = word << 6
                while column < (word + 1) << 6 {
                    if start == nil {
                        guard bits != 0 else { break }
                        let skip = bits.trailingZeroBitCount
                        start = column + skip
                        column += skip
                        bits >>= UInt64(skip)
                    }
                    let ones = (~bits).trailingZeroBitCount
                    column += ones
                    bits = ones == 64 ? 0 : bits >> UInt64(ones)
                    if column < (word + 1) << 6, let first = start {
                        runs.append(first...(column - 1))
                        start = nil
                    }
                }
            }
        }
        if let first = start { runs.append(first...((highWord + 1) << 6) - 1) }
        lowWord = .max
        highWord = -1
        return runs
    }
}
