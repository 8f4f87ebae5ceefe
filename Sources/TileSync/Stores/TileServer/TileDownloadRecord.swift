/// What a download state remembers of one tile of a tile server: its size and MD5, or that the
/// server had none there (a hole: no hash, size 0), the answer's validators, the download it
/// was fetched (or last revalidated) in, and whether its bytes are in the partial store.
struct TileDownloadRecord: Sendable, Equatable {
    let size: Int
    let hash: ContentHash?
    let validators: TileServerValidators
    /// The number of the download that fetched or revalidated it.
    let download: Int
    let inPartial: Bool

    var isHole: Bool { hash == nil }
}
