/// The role of a reader with more to tell of its store than tiles and metadata
/// (`TileReaderRoles.inspection`): facts of its format for `info`, the choices it made, what it holds that no
/// destination carries, and what to do when every entry was skipped as not a tile.
protocol StoreInspection: AnyObject {
    /// Facts of the store's own format (a PMTiles header's fields), as label and value, in the
    /// order shown.
    var details: [(label: String, value: String)] { get }

    /// What the reader chose by itself that a user should know (the layout it found for a
    /// tree), one line each; `TileReader.notes` reads it.
    var readerNotes: [String] { get }

    /// What the store holds besides tiles and metadata that no destination carries (an
    /// MBTiles' other tables and views).
    /// - Throws: `TileStoreError` when the store cannot be read.
    func uncarriedContent() throws -> [UncarriedContent]

    /// The listing in whatever order is cheapest (statistics need no order): an MBTiles scans
    /// its table instead of walking the tile index; nil when the ordered listing is as cheap. The
    /// store's own tiles: a rewriting reader that passes its source's inspection on gives the
    /// sizes before rewriting.
    /// - Throws: `TileStoreError` when the store cannot be read.
    func unorderedListing(matching filter: TileFilter) throws -> (any TileIndexCursor)?

    /// What to do when every entry of the store was skipped as not a tile (a layout that would
    /// read them, for a tree); nil when there is nothing to say.
    func layoutHint(forSkipped skipped: SkippedItems) -> String?
}

extension StoreInspection {
    var details: [(label: String, value: String)] { [] }
    var readerNotes: [String] { [] }
    func uncarriedContent() throws -> [UncarriedContent] { [] }
    func layoutHint(forSkipped skipped: SkippedItems) -> String? { nil }
    func unorderedListing(matching filter: TileFilter) throws -> (any TileIndexCursor)? { nil }
}
