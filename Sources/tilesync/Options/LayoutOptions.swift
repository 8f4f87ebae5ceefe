import TileSync

/// `--layout` and `--scheme` (or `--source-layout`, `--source-scheme`): the path template of a
/// folder or tar, as the `layout` option of that store's location.
struct LayoutOptions {
    /// Which store the pair is about; each role has its own option names and help.
    enum Role {
        /// The store a command creates.
        case destination
        /// The store a sync or diff compares with (and changes): existing ones keep their layout.
        case existingDestination
        /// The store read.
        case source
        /// The one store of `info`, the stores of `verify`.
        case store

        var layout: OptionDefinition {
            switch self {
            case .destination:
                .value("layout", "template", help: "Path template of a folder or tar destination, e.g. {z}/{x}/{y}.{ext}\n"
                    + "(default), {z}/{y}/{x}.{ext}, {z}/{x:4}/{y:4}.{ext}, {q}.{ext}, or a named\n"
                    + "layout: xyz, tms, zyx, safe, tc, mp, arcgis, quadkey.")
            case .existingDestination:
                .value("layout", "template", help: "Path template of a folder or tar destination\n(default: its metadata, else {z}/{x}/{y}.{ext}).")
            case .source: .value("source-layout", "template", help: "Path template or named layout of a folder or tar source\n"
                + "(default: its metadata, else found from its paths).")
            case .store: .value("layout", "template", help: "Path template of a folder or tar (default: from metadata, else {z}/{x}/{y}.{ext}).")
            }
        }

        var scheme: OptionDefinition {
            switch self {
            case .destination: .value("scheme", "xyz|tms", help: "Row scheme of a folder or tar destination (default xyz).")
            case .existingDestination: .value("scheme", "xyz|tms", help: "Row scheme of a folder or tar destination (default: its metadata, else xyz).")
            case .source: .value("source-scheme", "xyz|tms", help: "Row scheme of a folder or tar source (default: its metadata, else xyz).")
            case .store: .value("scheme", "xyz|tms", help: "Row scheme of a folder or tar.")
            }
        }

        /// `--scheme` before `--layout`, as help lists them.
        var definitions: [OptionDefinition] { [scheme, layout] }
    }

    /// The template given, nil when neither option was.
    let template: PathTemplate?
    /// The options the user typed (for messages), e.g. `--scheme`.
    let given: [String]

    /// - Throws: `UsageError` for a bad template, a scheme other than xyz/tms, or `--scheme xyz`
    ///   with a `{-y}` layout.
    init(_ arguments: ParsedArguments, role: Role) throws(UsageError) {
        var template: PathTemplate?
        if let text = arguments.value(role.layout) {
            do {
                template = try PathTemplate(text)
            } catch {
                throw UsageError("\(role.layout.flagText): \(error.description)", spec: arguments.spec)
            }
        }
        given = [role.scheme, role.layout].filter { arguments.isGiven($0) }.map(\.flagText)
        guard let scheme = arguments.value(role.scheme) else {
            self.template = template
            return
        }
        switch scheme.lowercased() {
        case "xyz":
            if template?.usesTMSRows == true {
                throw UsageError("\(role.scheme.flagText) xyz contradicts {-y} in \(role.layout.flagText)", spec: arguments.spec)
            }
            self.template = template ?? .xyz
        case "tms":
            self.template = (template ?? .xyz).withTMSRows()
        default:
            throw UsageError("\(role.scheme.flagText) must be xyz or tms, not '\(scheme)'", spec: arguments.spec)
        }
    }

    /// Sets the `layout` option of `options` when a template was given.
    func apply(to options: inout TileStoreOptions) {
        if let template { options.layout = template }
    }
}
