/// A writer that finds repeated blobs and repeated coordinates itself while it lays the store
/// out (PMTiles): the converter then runs no `BlobCounter` of its own and takes the writer's
/// counts after `finish()`.
protocol RepeatCountingWriter: TileWriter {
    /// The counts of the run just finished, nil before `finish()`.
    var repeatCounts: BlobCounter.Counts? { get }
}
