/// The options of kinds that keep a tile per file or entry at a path template (folders, tars).
struct TileTreeOptions: Sendable, Equatable {
    /// The layout given; nil: from the store's metadata `scheme`, else `{z}/{x}/{y}.{ext}`.
    var layout: PathTemplate?
    /// Store a repeated blob as a hard link to its first tile.
    var deduplicate: Bool
    /// The JSONP callback around `.grid.json` UTFGrids written (empty: plain JSON).
    var gridCallback: String

    /// The option names these kinds read.
    static let optionNames: Set<String> = [TileStoreOptions.Layout.name, TileStoreOptions.Deduplication.name, GridCallbackOption.name]

    /// Reads `layout`, `dedup` and `grid-callback` from a location's options.
    init(_ options: TileStoreOptions) {
        layout = options.layout
        deduplicate = options.deduplicate ?? false
        gridCallback = options.gridCallback ?? GridCallbackOption.defaultValue
    }

    /// The options of `location`, checked.
    /// - Throws: `TileStoreError` `.invalidOptions` for a grid callback a page could not call.
    static func checked(_ options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> TileTreeOptions {
        let tree = TileTreeOptions(options)
        guard GridCallbackOption.isValid(tree.gridCallback) else {
            throw TileStoreError(.invalidOptions, store: location.address, item: "option \(GridCallbackOption.name)",
                                 message: "'\(tree.gridCallback)' is not a JavaScript name (letters, digits, _, $ and .; empty for plain JSON)")
        }
        return tree
    }

    /// The layout to write a new store with.
    var writeLayout: PathTemplate { layout ?? .xyz }

    /// The metadata keys that say how a tree's paths are read: `scheme` (`xyz` or `tms`) and,
    /// for other layouts, `layout` (the template). Kinds without paths drop them.
    static let metadataKeys: Set<String> = ["scheme", "layout"]

    /// The layout a store's metadata declares: its `layout` key when that is a template, else
    /// `{z}/{x}/{-y}.{ext}` for `scheme` `tms`, else `{z}/{x}/{y}.{ext}`.
    static func layout(declaredBy metadata: TileMetadata) -> PathTemplate {
        if let declared = metadata["layout"], let template = try? PathTemplate(declared) { return template }
        return metadata["scheme"]?.lowercased() == "tms" ? .tms : .xyz
    }

    /// Records in a tree's metadata how its paths are read: `scheme`, and `layout` unless the
    /// template is `{z}/{x}/{y}.{ext}` or `{z}/{x}/{-y}.{ext}` (which `scheme` alone names).
    static func record(_ template: PathTemplate, in metadata: inout TileMetadata) {
        metadata["scheme"] = template.usesTMSRows ? "tms" : "xyz"
        metadata["layout"] = template == .xyz || template == .tms ? nil : template.text
    }

    /// What to tell when every path of a tree was skipped under `template`: a layout that reads
    /// them all, or the one folder the tiles are probably in; nil when neither is found.
    static func layoutHint(paths: [String], template: PathTemplate) -> String? {
        if let suggestion = PathTemplate.suggestion(reading: paths, other: template) {
            return "--source-layout '\(suggestion)' reads them"
        }
        if paths.count == 1, let folder = paths.first, folder.hasSuffix("/") {
            return "the tiles may be inside \(folder): name that folder as the store"
        }
        return nil
    }
}
