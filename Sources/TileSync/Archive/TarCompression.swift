/// The compression of a tar archive TileSync writes, chosen by the file name.
enum TarCompression: String, Sendable {
    case none
    case gzip
    case zstd

    /// `.gz`/`.tgz` gzip, `.zst`/`.tzst` zstd, anything else none.
    init(name: String) {
        let name = name.lowercased()
        if name.hasSuffix(".gz") || name.hasSuffix(".tgz") {
            self = .gzip
        } else if name.hasSuffix(".zst") || name.hasSuffix(".tzst") {
            self = .zstd
        } else {
            self = .none
        }
    }
}
