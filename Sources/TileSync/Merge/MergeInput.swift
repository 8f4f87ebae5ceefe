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
    /// True when the input counts and passes over coordinates (`countAhead`, `skipAhead`) and
    /// lists no sizes or hashes that could tell its tiles from another's: a merge may follow
    /// another input past it and count each coordinate it held as decided unread.
    var countsAhead: Bool { get }
    /// After a head was taken: how many coordinates the input holds after it, through `last`,
    /// counted without reading them one by one; nil when it cannot count them so.
    /// - Throws: `TileStoreError` from the source.
    func countAhead(through last: TileCoordinate) throws -> Int?
    /// After a head was taken: moves on so that the next head is the first coordinate after
    /// `last`; false (nothing moved) when the input cannot.
    /// - Throws: `TileStoreError` from the source.
    func skipAhead(past last: TileCoordinate) throws -> Bool
}

extension MergeInput {
    func headCoordinate() throws -> TileCoordinate? {
        try head()?.coordinate
    }

    func headOrigin() -> MergeOrigin? {
        nil
    }

    var headSizeIsKnown: Bool { true }

    var countsAhead: Bool { false }

    func countAhead(through last: TileCoordinate) throws -> Int? { nil }

    func skipAhead(past last: TileCoordinate) throws -> Bool { false }
}
