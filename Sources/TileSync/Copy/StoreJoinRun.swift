/// A conversion that a writer does by joining whole stores (a merge of archives whose tiles do
/// not overlap, `TileWriterAbilities.joinsStores`): no tile is streamed.
enum StoreJoinRun {
    /// Joins the reader's stores when everything allows it: no filter, no re-encoding, nobody
    /// watching each tile, a reader that is a merge of whole stores and a writer that joins
    /// them. Finishes the writer.
    /// - Returns: the summary without its duration, or nil when the tiles must be streamed
    ///   (nothing was written then).
    /// - Throws: what the writer throws while it plans or writes the join.
    static func run(reader: any TileReader, writer: any TileWriter, metadata: TileMetadata, options: TileConverter.Options,
                    watchesTiles: Bool) throws -> TileConverter.Summary? {
        guard options.filter.isEverything, options.transforms.compression == nil, !watchesTiles,
              let stores = reader.roles.joinableStores, let join = writer.abilities.joinsStores,
              let plan = try join(stores.parts, metadata) else { return nil }
        try writer.finish()
        stores.joined(plan.tilesPerPart)
        var summary = TileConverter.Summary(source: reader.location, destination: writer.location)
        summary.tilesWritten = plan.tilesPerPart.reduce(0, +)
        summary.bytesWritten = plan.tileBytes
        summary.destinationDeduplicates = writer.deduplication != .none
        summary.metadata = metadata
        summary.notes.append("the \(stores.parts.count) sources hold tiles in separate ranges, so their tile data was copied "
            + "as it is and only the directories were written anew")
        ConversionRun.takeCounts(of: writer, into: &summary)
        return summary
    }
}
