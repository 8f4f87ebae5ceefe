import Foundation

/// Merged tiles kept with their `MergeOrigin`, as runs in the merge's order on one private
/// scratch file (unlinked at once, so nothing is left behind): a merge of more sources than may
/// be open at once (`GroupedMergeCursor`) writes one run per group of sources, then merges the
/// runs (`RunMergeInput`). A record is a 30-byte header (zoom, holding, x, y, source, last
/// source, conflicting source, listed size, length; little-endian) and the tile's bytes.
final class MergeRuns {
    /// One run: its byte range and the items its sources passed over.
    struct Run {
        let start: UInt64
        let end: UInt64
        let skipped: SkippedItems
    }

    static let headerSize = 30
    let file: ScratchFile
    private(set) var runs: [Run] = []
    private var runStart: UInt64 = 0
    /// The header of the record being appended (reused).
    private var header = [UInt8](repeating: 0, count: MergeRuns.headerSize)

    /// - Throws: `POSIXFileError` when the scratch file cannot be created in the temporary folder.
    init() throws(POSIXFileError) {
        file = try ScratchFile(in: NSTemporaryDirectory(), purpose: "tilesync-merge-runs")
    }

    /// Appends a tile to the current run.
    /// - Throws: `POSIXFileError` (disk full, I/O error).
    func append(_ tile: Tile, origin: MergeOrigin) throws(POSIXFileError) {
        header[0] = UInt8(tile.coordinate.z)
        header[1] = origin.holding.rawValue
        put(tile.coordinate.x, field: 0)
        put(tile.coordinate.y, field: 1)
        put(origin.source, field: 2)
        put(origin.lastSource, field: 3)
        put(origin.conflictingSource, field: 4)
        put(origin.listedSize ?? -1, field: 5)
        put(tile.data.count, field: 6)
        try file.append(header)
        var failure: POSIXFileError?
        tile.data.withUnsafeBytes { raw in
            do throws(POSIXFileError) { try file.append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Stores a 32-bit little-endian field of the header (-1 as `UInt32.max`).
    private func put(_ value: Int, field: Int) {
        let stored = value < 0 ? UInt32.max : UInt32(truncatingIfNeeded: value)
        for byte in 0..<4 { header[2 + field * 4 + byte] = UInt8(truncatingIfNeeded: stored >> (byte * 8)) }
    }

    /// Ends the current run; the next tile starts another.
    func endRun(skipped: SkippedItems) {
        runs.append(Run(start: runStart, end: file.count, skipped: skipped))
        runStart = file.count
    }

    /// A merge input reading run `index` from its start.
    func input(_ index: Int) -> RunMergeInput {
        RunMergeInput(file: file, run: runs[index])
    }
}
