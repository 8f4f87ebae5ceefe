/// The checks before a run's first write, against `TileAmountLimits`: the source's amount where
/// it can say without reading its tiles (PMTiles runs, an MBTiles count), then the bytes that
/// amount takes at the destination against its free space.
enum TileAmountCheck {
    /// The source's amount within `filter`, nil when it cannot say.
    /// - Throws: `TileStoreError` `.limitExceeded` naming the count and `--max-tiles`; the
    ///   reader's errors.
    static func count(_ reader: any TileReader, filter: TileFilter, limits: TileAmountLimits) throws -> TileAmount? {
        let limit = reader.requestsEachTile ? limits.maxRequestedTiles : limits.maxTiles
        guard let amount = try reader.amount(matching: filter, upTo: limit) else { return nil }
        guard amount.tiles > limit else { return amount }
        let within = filter.isEverything ? "" : " within the filter"
        let what = reader.requestsEachTile ? "would be asked for" : "holds"
        let message = amount.isLowerBound
            ? "\(what) more than \(limit) tiles\(within), the limit of --max-tiles; stopped before reading them"
            : "\(what) \(amount.tiles) tiles\(within), more than the \(limit) of --max-tiles; stopped before reading them"
        throw TileStoreError(.limitExceeded, store: reader.location.address, message: message,
                             hint: amount.isLowerBound ? "pass a larger --max-tiles to allow it" : "pass --max-tiles \(amount.tiles) to allow it")
    }

    /// Refuses an amount that would not fit where `destination` is written.
    /// - Parameter deduplicates: the writer keeps repeated blobs once (distinct bytes count).
    /// - Throws: `TileStoreError` `.limitExceeded` with the bytes needed and free.
    static func checkSpace(_ amount: TileAmount, destination: TileStoreLocation, deduplicates: Bool,
                           limits: TileAmountLimits) throws {
        guard limits.checksFreeSpace else { return }
        let bytes = deduplicates ? min(amount.bytes, amount.distinctBytes ?? amount.bytes) : amount.bytes
        guard let space = destination.resource.space(forTiles: amount.tiles, tileBytes: bytes), space.needed > space.available else { return }
        throw TileStoreError(.limitExceeded, store: destination.address,
                             message: "\(amount.tiles) tiles need about \(space.needed) bytes here, and its file system has "
                                + "\(space.available) bytes free; nothing was written",
                             hint: "free some space or write elsewhere; --no-space-check tries anyway")
    }
}
