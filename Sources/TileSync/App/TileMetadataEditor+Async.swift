extension TileMetadataEditor {
    /// `metadata(of:)` for async callers, read on a Dispatch thread.
    /// - Throws: as `metadata(of:)`.
    public static func metadata(of store: TileStoreLocation) async throws -> TileMetadata {
        try await BlockingWork.run { try metadata(of: store) }
    }

    /// `edit` for async callers, run on a Dispatch thread.
    /// - Throws: as `edit`.
    public static func edit(_ store: TileStoreLocation, setting: [(key: String, value: String)] = [],
                            removing: [String] = []) async throws -> (before: TileMetadata, after: TileMetadata) {
        let pairs = setting.map { TileMetadata.Entry(key: $0.key, value: $0.value) }
        let edited = try await BlockingWork.run {
            let result = try edit(store, setting: pairs.map { ($0.key, $0.value ?? "") }, removing: removing)
            return [result.before, result.after]
        }
        return (edited[0], edited[1])
    }
}
