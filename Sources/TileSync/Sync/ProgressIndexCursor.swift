/// An index passed through as it is read, telling `report` after each entry how many entries
/// and bytes have gone by (the listing of a source that asks per tile is its download).
final class ProgressIndexCursor: TileIndexCursor {
    private let source: any TileIndexCursor
    private let report: (_ entries: Int, _ bytes: Int) -> Void
    private var entries = 0
    private var bytes = 0

    init(_ source: any TileIndexCursor, report: @escaping (_ entries: Int, _ bytes: Int) -> Void) {
        self.source = source
        self.report = report
    }

    var skipped: SkippedItems { source.skipped }

    func next() throws -> TileIndexEntry? {
        guard let entry = try source.next() else { return nil }
        entries += 1
        bytes += entry.size
        report(entries, bytes)
        return entry
    }
}
