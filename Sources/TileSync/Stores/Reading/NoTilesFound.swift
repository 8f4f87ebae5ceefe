/// The error of a read that found no tile while the store holds entries that were skipped as
/// not being tiles: the layout is probably not the store's (mb-util converts such a tree into
/// an empty store and exits 0). A store that is really empty is no error.
enum NoTilesFound {
    /// How many skipped entries the message shows.
    static let shown = 3

    /// The error naming the source, a few skipped entries, and what to do.
    static func error(source reader: any TileReader, skipped: SkippedItems) -> TileStoreError {
        let shownItems = skipped.named.prefix(shown)
        let more = skipped.count > shownItems.count ? " and \(skipped.count - shownItems.count) more" : ""
        let reasons = Set(shownItems.map(\.reason))
        let examples = reasons.count == 1
            ? shownItems.map(\.item).joined(separator: ", ") + more + ": " + (reasons.first ?? "")
            : shownItems.map { "\($0.item): \($0.reason)" }.joined(separator: "; ") + more
        let hint = reader.roles.inspection?.layoutHint(forSkipped: skipped)
            ?? "name its layout with --source-layout TEMPLATE (docs/formats.md lists the fields)"
        let what = skipped.count == 1 ? "its one entry was skipped" : "all \(skipped.count) entries were skipped"
        return TileStoreError(.notATileStore, store: reader.location.address, message: "holds no tile: \(what) (\(examples))", hint: hint)
    }
}
