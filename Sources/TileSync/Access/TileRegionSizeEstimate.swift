import Foundation

extension TileRegion {
    /// What a store holds in a region at one zoom (or all zooms together), estimated from a
    /// sample of its tiles: for stores that answer tile by tile (a tile server), where knowing
    /// exactly means asking for every tile. A tile the store lacks counts as 0 bytes.
    public struct SizeEstimate: Sendable, Equatable {
        /// The zoom level; nil for the total of several.
        public let z: Int?
        /// Tiles the region covers.
        public let tiles: Int
        /// Tiles asked for.
        public let sampled: Int
        /// Sampled tiles the store had.
        public let sampledHeld: Int
        /// The estimated bytes of the tiles the store holds in the region.
        public let bytes: Double
        /// The estimate's sampling variance, in bytes squared.
        public let variance: Double

        /// Half the width of the 95% interval around `bytes` (1.96 standard errors; 0 when
        /// every tile was asked for).
        public var margin: Double { 1.96 * variance.squareRoot() }

        /// The estimated number of tiles the store holds in the region.
        public var heldTiles: Double { sampled == 0 ? 0 : Double(sampledHeld) / Double(sampled) * Double(tiles) }

        /// The total of estimates of different zooms (independent samples: variances add).
        public static func combined(_ estimates: [SizeEstimate]) -> SizeEstimate {
            SizeEstimate(z: nil, tiles: estimates.reduce(0) { $0 + $1.tiles }, sampled: estimates.reduce(0) { $0 + $1.sampled },
                         sampledHeld: estimates.reduce(0) { $0 + $1.sampledHeld }, bytes: estimates.reduce(0) { $0 + $1.bytes },
                         variance: estimates.reduce(0) { $0 + $1.variance })
        }
    }

    /// Estimates per zoom what `reader` holds in the region from `sampleSize` tiles in all,
    /// asked with `tile(at:)` one after another: a zoom covering at most 8 tiles is asked whole
    /// (exact), the others get a share of the sample in proportion to their tiles (at least 8),
    /// picked at random by `seed` (the same seed picks the same tiles). The estimate of a zoom
    /// is its tiles times the sample's mean size, with the variance of that mean (corrected for
    /// sampling without replacement).
    /// - Throws: `TileStoreError` when a sampled tile cannot be read (a failed request).
    public func sizeEstimates(in reader: any TileReader, zooms: ClosedRange<Int>, sampleSize: Int = 100,
                              seed: UInt64 = 1) throws -> [SizeEstimate] {
        try SizeEstimate.sample(reader, counts: zooms.map { ($0, tileCount(atZoom: $0)) }, sampleSize: sampleSize, seed: seed) { z, indexes in
            cover(atZoom: z).tiles(atIndexes: indexes)
        }
    }
}

extension TileRegion.SizeEstimate {
    /// The estimates of zooms holding `counts` tiles, from `sampleSize` tiles in all picked by
    /// `seed` among each zoom's tiles (numbered from 0; `tiles` gives those of sorted numbers).
    static func sample(_ reader: any TileReader, counts: [(z: Int, count: Int)], sampleSize: Int, seed: UInt64,
                       tiles: (Int, [Int]) -> [TileCoordinate]) throws -> [Self] {
        let total = max(1, counts.reduce(0) { $0 + $1.count })
        var generator = SplitMix64(seed: seed)
        var plan: [(z: Int, tiles: [TileCoordinate])] = []
        for (z, count) in counts {
            let share = count <= 8 ? count : min(count, max(8, Int((Double(sampleSize) * Double(count) / Double(total)).rounded())))
            var picked = Set<Int>()
            if share == count { picked = Set(0..<count) }
            while picked.count < share { picked.insert(Int(generator.next() % UInt64(count))) }
            plan.append((z, tiles(z, picked.sorted())))
        }
        // One after another through the one reader (a reader is not shared between threads).
        let sizes = try plan.flatMap(\.tiles).map { try reader.tile(at: $0)?.count }
        var offset = 0
        return zip(plan, counts).map { entry, count in
            let sample = sizes[offset..<offset + entry.tiles.count]
            offset += entry.tiles.count
            return estimate(z: entry.z, tiles: count.count, sample: Array(sample))
        }
    }

    private static func estimate(z: Int, tiles: Int, sample: [Int?]) -> Self {
        let n = Double(sample.count), bytes = sample.map { Double($0 ?? 0) }
        guard n > 0 else { return Self(z: z, tiles: tiles, sampled: 0, sampledHeld: 0, bytes: 0, variance: 0) }
        let mean = bytes.reduce(0, +) / n
        let spread = n > 1 ? bytes.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1) : 0
        let population = Double(tiles)
        let variance = population * population * spread / n * max(0, 1 - n / population)
        return Self(z: z, tiles: tiles, sampled: sample.count, sampledHeld: sample.count { $0 != nil },
                            bytes: mean * population, variance: variance)
    }
}
