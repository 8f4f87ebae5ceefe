/// The options of kinds that keep a tile per file or entry at a path template (folders, tars).
public struct TileTreeOptions: Sendable, Equatable {
    /// The layout given; nil: from the store's metadata `scheme`, else `{z}/{x}/{y}.{ext}`.
    public var layout: PathTemplate?
    /// Store a repeated blob as a hard link to its first tile.
    public var deduplicate: Bool

    /// The option names these kinds read.
    public static let optionNames: Set<String> = [LayoutOption.name, DeduplicationOption.name]

    /// Reads `layout` and `dedup` from a location's options.
    public init(_ options: TileStoreOptions) {
        layout = options.layout
        deduplicate = options.deduplicate ?? false
    }

    /// The layout to write a new store with.
    public var writeLayout: PathTemplate { layout ?? .xyz }

    /// The layout a store's metadata declares: `{z}/{x}/{-y}.{ext}` for `scheme` `tms`, else
    /// `{z}/{x}/{y}.{ext}`.
    public static func layout(declaredBy metadata: TileMetadata) -> PathTemplate {
        metadata["scheme"]?.lowercased() == "tms" ? .tms : .xyz
    }
}
