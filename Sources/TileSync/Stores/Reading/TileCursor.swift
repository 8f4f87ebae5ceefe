/// A pull stream of tiles from a store.
///
/// `next()` returns nil at the end. When it throws for one item (a `TileStoreError` of kind
/// `.invalidTile`), the cursor has already moved past that item, so a caller that skips invalid
/// tiles may call `next()` again; any other error ends the stream.
public protocol TileCursor: AnyObject {
    func next() throws -> Tile?
    /// Items passed over because they are not tiles (directories, stray files, links), counted
    /// with the first few named.
    var skipped: SkippedItems { get }
}
