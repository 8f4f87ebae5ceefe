import TileSync

/// What the server learned from a tile file's bytes the first time it read them, remembered
/// by the file's identity (`TileFile.Identity`: device, inode, size, modification and change
/// times) so that the file is then answered from its descriptor (sendfile) without being read;
/// a file rewritten or replaced has another identity and is read again.
struct ServedFileTag: Sendable {
    /// The bytes' MD5, the ETag.
    let hash: ContentHash
    /// The bytes' format and compression by their magic (`SniffedTileFormat(sniffing:)`).
    let sniffed: SniffedTileFormat
}
