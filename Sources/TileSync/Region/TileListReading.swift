import Foundation

/// Reads a tile list's lines in 64 KiB chunks (a line longer than `TileListLine.maximumLength`
/// is an invalid line, never held whole), widens each tile, and hands over its keys.
struct TileListReading {
    let file: String
    let widening: ClosedRange<Int>?
    let skipInvalid: Bool
    /// Lines that held a tile.
    private(set) var listed = 0
    /// Invalid lines skipped.
    private(set) var skipped = 0
    private var added = 0

    init(file: String, widening: ClosedRange<Int>?, skipInvalid: Bool) {
        self.file = file
        self.widening = widening
        self.skipInvalid = skipInvalid
    }

    /// Calls `add` with the (z, x, y) key of every tile the list names, widened.
    /// - Throws: `TileListError` for an unreadable file, an invalid line (unless skipped), a
    ///   widening past `TileList.maximumTiles`, or what `add` throws.
    mutating func read(_ add: (UInt64) throws(TileListError) -> Void) throws(TileListError) {
        guard let handle = file == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: file) else {
            throw TileListError(file: file, message: "cannot open the file (missing or unreadable)")
        }
        defer { if file != "-" { try? handle.close() } }
        var line: [UInt8] = []
        var number = 0, overlong = false
        while true {
            let chunk: Data
            do {
                guard let read = try handle.read(upToCount: 64 << 10), !read.isEmpty else { break }
                chunk = read
            } catch {
                throw TileListError(file: file, message: "cannot read: \(error.localizedDescription)")
            }
            for byte in chunk {
                guard byte == 0x0A else {
                    if line.count < TileListLine.maximumLength { line.append(byte) } else { overlong = true }
                    continue
                }
                number += 1
                try take(line, overlong: overlong, number: number, add)
                line.removeAll(keepingCapacity: true)
                overlong = false
            }
        }
        if !line.isEmpty || overlong { try take(line, overlong: overlong, number: number + 1, add) }
    }

    private mutating func take(_ line: [UInt8], overlong: Bool, number: Int, _ add: (UInt64) throws(TileListError) -> Void) throws(TileListError) {
        let tile: TileCoordinate?
        do throws(TileListLineProblem) {
            if overlong { throw TileListLineProblem("longer than \(TileListLine.maximumLength) bytes") }
            tile = try TileListLine.parse(line[...])
        } catch {
            guard skipInvalid else { throw TileListError(file: file, line: number, message: error.message) }
            skipped += 1
            return
        }
        guard let tile else { return }
        listed += 1
        try widen(tile, add)
    }

    /// The tile itself, or its ancestors, itself and descendants within `widening`.
    private mutating func widen(_ tile: TileCoordinate, _ add: (UInt64) throws(TileListError) -> Void) throws(TileListError) {
        guard let widening else {
            added += 1
            return try add(TileList.key(tile))
        }
        let widened = widening.reduce(0) { sum, z in z > tile.z ? sum + 1 << (2 * (z - tile.z)) : sum + 1 }
        guard added + widened <= TileList.maximumTiles else {
            throw TileListError(file: file, message: "widening \(tile) to zooms \(widening.lowerBound)-\(widening.upperBound) makes more than \(TileList.maximumTiles) tiles; list fewer tiles or widen less")
        }
        added += widened
        for z in widening {
            guard z > tile.z else {
                let shift = tile.z - z
                try add(TileList.key(TileCoordinate(unchecked: z, tile.x >> shift, tile.y >> shift)))
                continue
            }
            let shift = z - tile.z
            for x in (tile.x << shift)..<((tile.x + 1) << shift) {
                for y in (tile.y << shift)..<((tile.y + 1) << shift) {
                    try add(TileList.key(TileCoordinate(unchecked: z, x, y)))
                }
            }
        }
    }
}
