import Foundation

/// One source of a merge as the merge walks it: the entry it holds next (in the merge's order)
/// and that tile's bytes. A head stays until `take()`; an error while reading the next entry
/// leaves the input ready to read on past it.
protocol MergeInput: AnyObject {
    /// The entry at the head, reading the next one when the last was taken; nil at the end.
    /// - Throws: `TileStoreError` from the source, `.corrupt` when it breaks the merge's order.
    func head() throws -> TileIndexEntry?
    /// The coordinate of the head; an input not opened yet answers with the first coordinate it
    /// was found to hold, without opening its source.
    /// - Throws: as `head()`.
    func headCoordinate() throws -> TileCoordinate?
    /// True when the head entry's `size` is the tile's (an input that reads tiles only when
    /// asked does not know it).
    var headSizeIsKnown: Bool { get }
    /// The bytes of the head's tile.
    /// - Throws: `TileStoreError` when they cannot be read.
    func headData() throws -> Data
    /// Where the head's tile came from, for an input that is itself a merge of a group of
    /// sources (`RunMergeInput`); nil for a source read directly.
    func headOrigin() -> MergeOrigin?
    /// Marks the head taken.
    func take()
    /// Items the source passed over because they are not tiles.
    var skipped: SkippedItems { get }
}

extension MergeInput {
    func headCoordinate() throws -> TileCoordinate? {
        try head()?.coordinate
    }

    func headOrigin() -> MergeOrigin? {
        nil
    }

    var headSizeIsKnown: Bool { true }
}
