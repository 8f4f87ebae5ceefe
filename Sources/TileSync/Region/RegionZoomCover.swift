extension TileRegion {
    /// The tiles a region covers at one zoom level, as runs of columns per row: memory grows with
    /// the region's outline (rows times the runs in each), never with the number of tiles.
    public struct ZoomCover: Sendable, Equatable {
        /// The zoom level.
        public let z: Int
        /// Rows holding tiles, ascending (XYZ, north to south).
        private let rows: [Int32]
        /// `spanStart[i]..<spanStart[i + 1]` are row `rows[i]`'s runs.
        private let spanStart: [Int32]
        private let spanLow: [Int32]
        private let spanHigh: [Int32]
        /// Number of tiles.
        public let tileCount: Int

        /// True when no tile is covered.
        public var isEmpty: Bool { rows.isEmpty }

        /// Number of rows holding tiles.
        public var rowCount: Int { rows.count }

        /// True when the tile at column `x`, row `y` is covered.
        public func contains(x: Int, y: Int) -> Bool {
            guard let index = rowIndex(of: y) else { return false }
            var low = Int(spanStart[index]), high = Int(spanStart[index + 1])
            while low < high {
                let middle = (low + high) / 2
                if Int(spanHigh[middle]) < x { low = middle + 1 } else { high = middle }
            }
            return low < Int(spanStart[index + 1]) && Int(spanLow[low]) <= x
        }

        /// The covered columns of row `y`, west to east.
        public func columns(inRow y: Int) -> [ClosedRange<Int>] {
            guard let index = rowIndex(of: y) else { return [] }
            return spans(ofRowAt: index)
        }

        /// The covered tiles at `indexes` (ascending, each below `tileCount`) when the tiles are
        /// numbered row by row, west to east: one pass over the runs.
        func tiles(atIndexes indexes: [Int]) -> [TileCoordinate] {
            var found: [TileCoordinate] = []
            var next = 0, passed = 0
            for row in rows.indices where next < indexes.count {
                for span in spans(ofRowAt: row) {
                    while next < indexes.count, indexes[next] < passed + span.count {
                        found.append(TileCoordinate(unchecked: z, span.lowerBound + indexes[next] - passed, Int(rows[row])))
                        next += 1
                    }
                    passed += span.count
                }
            }
            return found
        }

        /// The cover as rectangles: rows with the same runs are joined into one range per run.
        public var ranges: [TileRange] {
            var result: [TileRange] = []
            var index = 0
            while index < rows.count {
                let spans = spans(ofRowAt: index)
                var end = index
                while end + 1 < rows.count, rows[end + 1] == rows[end] + 1, self.spans(ofRowAt: end + 1) == spans { end += 1 }
                for span in spans {
                    result.append(TileRange(unchecked: z, columns: span, rows: Int(rows[index])...Int(rows[end])))
                }
                index = end + 1
            }
            return result
        }

        /// The smallest range holding every covered tile, nil when none is.
        public var boundingRange: TileRange? {
            guard let first = rows.first, let last = rows.last, let west = spanLow.min(), let east = spanHigh.max() else { return nil }
            return TileRange(unchecked: z, columns: Int(west)...Int(east), rows: Int(first)...Int(last))
        }

        /// The columns that hold a covered tile in some row, joined into runs.
        public let columnRuns: [ClosedRange<Int>]

        /// Covered tiles inside `range` (at this zoom).
        public func tileCount(in range: TileRange) -> Int {
            var count = 0
            forEachPiece(of: range) { count += $0.count }
            return count
        }

        /// The covered parts of `range`, one range per row and run.
        public func pieces(of range: TileRange) -> [TileRange] {
            var pieces: [TileRange] = []
            forEachPiece(of: range) { pieces.append($0) }
            return pieces
        }

        private func forEachPiece(of range: TileRange, _ body: (TileRange) -> Void) {
            guard range.z == z else { return }
            var index = firstRowIndex(atOrAfter: range.rows.lowerBound)
            while index < rows.count, Int(rows[index]) <= range.rows.upperBound {
                for span in spans(ofRowAt: index) where span.overlaps(range.columns) {
                    let row = Int(rows[index])
                    body(TileRange(unchecked: z, columns: span.clamped(to: range.columns), rows: row...row))
                }
                index += 1
            }
        }

        /// The cover grown by `border` tiles in every direction (columns wrap around the
        /// antimeridian, rows stop at the poles).
        func grown(by border: Int) -> TileRegion.ZoomCover {
            guard border > 0, let first = rows.first, let last = rows.last else { return self }
            let lastTile = (1 << z) - 1
            var builder = Builder(z: z)
            var window = firstRowIndex(atOrAfter: Int(first) - border)
            for row in max(0, Int(first) - border)...min(lastTile, Int(last) + border) {
                while window < rows.count, Int(rows[window]) < row - border { window += 1 }
                var spans: [ClosedRange<Int>] = []
                var index = window
                while index < rows.count, Int(rows[index]) <= row + border {
                    for span in self.spans(ofRowAt: index) {
                        let low = span.lowerBound - border, high = span.upperBound + border
                        if high - low >= lastTile {
                            spans.append(0...lastTile)
                            continue
                        }
                        spans.append(max(0, low)...min(lastTile, high))
                        if low < 0 { spans.append((low + lastTile + 1)...lastTile) }
                        if high > lastTile { spans.append(0...(high - lastTile - 1)) }
                    }
                    index += 1
                }
                builder.append(row: row, spans: spans)
            }
            return builder.finish()
        }

        private func spans(ofRowAt index: Int) -> [ClosedRange<Int>] {
            (Int(spanStart[index])..<Int(spanStart[index + 1])).map { Int(spanLow[$0])...Int(spanHigh[$0]) }
        }

        private func rowIndex(of y: Int) -> Int? {
            let index = firstRowIndex(atOrAfter: y)
            return index < rows.count && Int(rows[index]) == y ? index : nil
        }

        private func firstRowIndex(atOrAfter y: Int) -> Int {
            var low = 0, high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if Int(rows[middle]) < y { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Sorts runs and joins those that overlap or touch.
        static func joined(_ spans: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
            var result: [ClosedRange<Int>] = []
            for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = result.last, span.lowerBound <= last.upperBound + 1 {
                    result[result.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
                } else {
                    result.append(span)
                }
            }
            return result
        }

        /// Collects rows in ascending order.
        struct Builder {
            let z: Int
            private var rows: [Int32] = []
            private var spanStart: [Int32] = [0]
            private var spanLow: [Int32] = []
            private var spanHigh: [Int32] = []
            private var tileCount = 0

            init(z: Int) {
                self.z = z
            }

            /// Adds a row (above every row added before) with its runs in any order; an empty row is skipped.
            mutating func append(row: Int, spans: [ClosedRange<Int>]) {
                let joined = TileRegion.ZoomCover.joined(spans)
                guard !joined.isEmpty else { return }
                rows.append(Int32(row))
                for span in joined {
                    spanLow.append(Int32(span.lowerBound))
                    spanHigh.append(Int32(span.upperBound))
                    tileCount += span.count
                }
                spanStart.append(Int32(spanLow.count))
            }

            func finish() -> TileRegion.ZoomCover {
                TileRegion.ZoomCover(z: z, rows: rows, spanStart: spanStart, spanLow: spanLow, spanHigh: spanHigh, tileCount: tileCount,
                                columnRuns: TileRegion.ZoomCover.joined(zip(spanLow, spanHigh).map { Int($0)...Int($1) }))
            }
        }
    }
}
