/// The compression of a tar archive TileSync writes, chosen by the file name.
enum TarCompression: String, Sendable {
    case none
    case gzip
    case zstd
}
