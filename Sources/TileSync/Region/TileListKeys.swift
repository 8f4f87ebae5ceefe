/// Writes a tile list's sorted keys without repeats to a scratch file, with the first key of
/// each block, the count and extent per zoom, and an MD5 of the keys.
enum TileListKeys {
    struct Written {
        let file: ScratchFile
        let count: Int
        let blockFirsts: [UInt64]
        let extents: [Int: TileRange]
        let counts: [Int: Int]
        let fingerprint: String
    }

    static func write(_ sorted: SortedRecords<UInt64>, folder: String) throws -> Written {
        let file = try ScratchFile(in: folder, purpose: "tile-list")
        let hasher = MD5Hasher()
        var count = 0, previous: UInt64?
        var blockFirsts: [UInt64] = [], extents: [Int: TileRange] = [:], counts: [Int: Int] = [:]
        var batch: [UInt64] = []
        batch.reserveCapacity(TileList.blockKeys)
        func flushBatch() throws {
            try batch.withUnsafeBytes { bytes in
                try file.append(bytes)
                hasher.update(bytes)
            }
            batch.removeAll(keepingCapacity: true)
        }
        while let key = try sorted.next() {
            if key == previous { continue }
            previous = key
            if count % TileList.blockKeys == 0 { blockFirsts.append(key) }
            count += 1
            batch.append(key)
            if batch.count == TileList.blockKeys { try flushBatch() }
            let tile = TileList.coordinate(key)
            counts[tile.z, default: 0] += 1
            let range = extents[tile.z]
            extents[tile.z] = TileRange(unchecked: tile.z, columns: min(range?.columns.lowerBound ?? tile.x, tile.x)...max(range?.columns.upperBound ?? tile.x, tile.x),
                                        rows: min(range?.rows.lowerBound ?? tile.y, tile.y)...max(range?.rows.upperBound ?? tile.y, tile.y))
        }
        try flushBatch()
        try file.flush()
        return Written(file: file, count: count, blockFirsts: blockFirsts, extents: extents, counts: counts,
                       fingerprint: (try? hasher.finalize().hex) ?? "\(count)-\(previous ?? 0)")
    }
}
