import Foundation

/// A reader that asks a server for every tile (a tile server) and can keep what it fetched
/// beside the destination between runs: the servers' validators and expiry per tile, so a sync
/// asks only for stale tiles and conditionally, and the bytes of an unfinished download, so an
/// interrupted run is continued. The engines attach it to their destination and end it when
/// the destination is complete.
protocol DownloadKeepingReader: TileReader {
    /// Keeps downloads beside `destination` (one state per shard); `recording` false reads
    /// what an earlier run kept and writes nothing (a dry run).
    /// - Throws: `TileStoreError` when the state cannot be opened or created.
    func keepDownloads(beside destination: TileStoreLocation, shard: TileShard?, recording: Bool) throws(TileStoreError)
    /// A text that changes whenever what the kept downloads give would change; nil while they
    /// do not settle it (a stale tile, an unfinished download, `--revalidate`, none kept).
    var downloadsStamp: String? { get }
    /// The bytes of one tile fetched by this run or kept by an earlier one, for the tiles'
    /// format, so that learning it costs no request; nil when none is at hand.
    var sampleTile: Data? { get }
    /// How many of the places `amount` counted (tiles or not) the reads so far have settled.
    var placesSettled: Int? { get }
    /// Ends a complete download: its partial bytes are deleted; the per-tile validators are
    /// kept for the next sync when `keepingValidators`, else deleted too (a conversion).
    func finishDownloads(keepingValidators: Bool)
}
