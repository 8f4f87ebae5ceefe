extension TileList {
    /// Estimates per zoom what `reader` holds of the listed tiles from `sampleSize` tiles in
    /// all, as `TileRegion.sizeEstimates` does for a region (for a tile server, where knowing
    /// exactly means asking for every tile).
    /// - Throws: `TileStoreError` when a sampled tile cannot be read (a failed request).
    public func sizeEstimates(in reader: any TileReader, zooms: ClosedRange<Int>, sampleSize: Int = 100,
                              seed: UInt64 = 1) throws -> [TileRegion.SizeEstimate] {
        try TileRegion.SizeEstimate.sample(reader, counts: zooms.map { ($0, count(atZoom: $0)) }, sampleSize: sampleSize, seed: seed) { z, indexes in
            tiles(atZoom: z, indexes: indexes)
        }
    }
}
