/// A tile found in a listing, with the key of its object.
struct S3ListedTile: Sendable {
    let entry: TileIndexEntry
    let key: String
}
