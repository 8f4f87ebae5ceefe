/// A pull stream of UTFGrids from a store.
///
/// `next()` returns nil at the end. When it throws `TileStoreError` `.invalidTile` for one grid
/// (not JSON, a bad coordinate), the cursor has moved past it, so a caller that skips invalid
/// items may call `next()` again; any other error ends the stream.
public protocol UTFGridCursor: AnyObject {
    func next() throws -> UTFGrid?
}
