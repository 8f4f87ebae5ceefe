/// A writer that can read the source's tiles again at `finish()` instead of keeping their bytes
/// (PMTiles): the converter hands it a rereading source before the first tile, when the source
/// can reread exactly and the tiles reach the writer unchanged, and holds the source's
/// consistent reads from the first tile to the end of `finish()`.
protocol SourceRereadingWriter: TileWriter {
    /// Reads blobs from `source` at `finish()`; call before `begin(metadata:format:)`.
    func rereadBlobs(from source: any TileColumnRereading)
}
