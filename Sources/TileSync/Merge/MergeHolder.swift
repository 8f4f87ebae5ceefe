/// A merge input that holds the coordinate the merge is at: its position among the merge's
/// inputs, its listing entry and where its tile came from (with the size its listing gave).
struct MergeHolder {
    let input: Int
    let entry: TileIndexEntry
    let origin: MergeOrigin
}
