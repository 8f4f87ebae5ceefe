/// What a write found repeated: tiles whose bytes an earlier tile already had, their bytes,
/// and the first of them named. Counted by the converter's `BlobCounter`, or by a writer that
/// counts repeats itself (`TileWriterAbilities.repeatCounts`).
struct BlobCounts {
    var duplicateTiles = 0
    var duplicateBytes = 0
    var repeated = SkippedItems()
}
