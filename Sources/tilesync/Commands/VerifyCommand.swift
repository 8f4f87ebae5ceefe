import TileSync

/// `tilesync verify STORE [OTHER]`.
struct VerifyCommand: Command {
    static let fix = OptionDefinition.flag("fix", help: "Repair wrong stored hashes and metadata in place.")
    static let quiet = OptionDefinition.flag("quiet", help: "Print only the final line.")
    static let deep = OptionDefinition.flag("deep", help: "Decode every tile: vector tiles against the MVT 2.1\nspecification, JSON tiles, PNG, JPEG and WebP images.")
    static let json = OptionDefinition.flag("json", help: "Print the report as one JSON object.")

    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check a store's integrity, or whether two stores hold the same tiles.",
        discussion: """
            With one store: SQLite integrity (MBTiles), coordinates in range, no NULL or empty
            tiles, bytes in the declared format, stored hashes (flat-with-hash, normalized) against
            the bytes, tiles within the declared minzoom/maxzoom/bounds, and agg_tiles_hash.
            Prints one line per problem (counted when many); --fix rewrites wrong stored hashes
            and metadata (MBTiles and folders). A store whose structure is damaged and that says
            it holds more than --max-tiles tiles, or cannot be counted, is not read tile by tile:
            its damage is the answer.
            With two stores of any kinds: compares their tiles by MD5 and prints the differences;
            with more, the last is compared with the merge of the others, in the order given
            (--on-duplicate decides coordinates several hold: "is DST the merge of A and B?");
            --min-zoom, --max-zoom, --bbox and --shard limit the comparison, --layout and --scheme apply to
            the stores that are folders or tars.
            A status line on stderr (when it is a terminal, or with TILESYNC_PROGRESS=1) counts the
            tiles checked; Ctrl-C stops the check (exit 130).
            --deep decodes every tile on every core and names each bad one with what is wrong:
            protocol buffers wire errors, a layer without a name or version, two layers of one
            name, key or value indexes out of range, values of no known type, geometry commands
            that run past their data or do not fit the geometry type (a polygon whose first ring
            is not exterior, in version 2 layers); a PNG, JPEG or WebP image that does not decode;
            JSON inside a compressed tile of a store whose format is pbf.
            Metadata that does not describe the tiles (minzoom, maxzoom, bounds, a PMTiles header's
            centre) is a warning: the exit status says whether the data is sound.
            Exit status 0 when the data is sound or the stores identical, 1 otherwise.
            """,
        arguments: [
            .init(name: "store", help: "An MBTiles file, a folder, a tar or PMTiles archive."),
            .init(name: "other", help: "A second store to compare with the first; with several, the\nlast is compared with the merge of the ones before it.",
                  isOptional: true, isVariadic: true),
        ],
        options: [fix, deep, json, LimitOptions.maxTiles] + FilterOptions.definitions
            + [LayoutOptions.Role.store.layout, LayoutOptions.Role.store.scheme, quiet]
            + [StorePairOptions.onDuplicate]
            + StoreKindOptions.definitions(for: [.read]),
        examples: [
            "tilesync verify world.mbtiles",
            "tilesync verify world.mbtiles --fix",
            "tilesync verify cities.pmtiles --deep --json",
            "tilesync verify world.mbtiles tiles/",
            "tilesync verify base.mbtiles detail.pmtiles merged.mbtiles --on-duplicate override",
        ])

    static let catchesSignals = true

    let store: TileStoreLocation
    let other: TileStoreLocation?
    let filter: TileFilter
    let fixes: Bool
    let quiet: Bool
    let decodes: Bool
    let printsJSON: Bool
    let limits: TileAmountLimits
    var writtenStores: [TileStoreLocation] { fixes ? [store] : [] }

    init(parsing arguments: ParsedArguments) throws {
        let layout = try LayoutOptions(arguments, role: .store)
        let filter = try FilterOptions(arguments)
        fixes = arguments.flag(Self.fix)
        var limits = TileAmountLimits()
        limits.maxTiles = try arguments.integer(LimitOptions.maxTiles, in: 1...Int.max) ?? TileAmountLimits.defaultMaxTiles
        self.limits = limits
        quiet = arguments.flag(Self.quiet)
        decodes = arguments.flag(Self.deep)
        printsJSON = arguments.flag(Self.json)
        self.filter = filter.filter
        let flags = { (_: String) in layout.given.joined(separator: " and ") }
        let kindOptions = StoreKindOptions(arguments, uses: [.read])
        guard arguments.positionals.count >= 2 else {
            guard !filter.isGiven else { throw UsageError("--min-zoom, --max-zoom, --bbox and --shard limit a comparison of two stores", spec: Self.spec) }
            var options = TileStoreOptions()
            layout.apply(to: &options)
            store = try StoreArgument.location(arguments.positionals[0], options: options, kindOptions: kindOptions, use: .read,
                                               flags: flags, spec: Self.spec)
            try kindOptions.check([store])
            other = nil
            return
        }
        guard !fixes, !decodes, !printsJSON else { throw UsageError("--fix, --deep and --json work on one store", spec: Self.spec) }
        var stores = try arguments.positionals.map { try TileStoreLocation(parsing: $0) }
        if let template = layout.template {
            let takers = stores.indices.filter { stores[$0].kind.optionNames.contains(TileStoreOptions.Layout.name) }
            guard !takers.isEmpty else {
                throw UsageError("\(flags(TileStoreOptions.Layout.name)) applies to folders, tar archives and s3:// stores, and no store is one", spec: Self.spec)
            }
            for index in takers { stores[index].options.layout = template }
        }
        for index in stores.indices { try kindOptions.attach(to: &stores[index], use: .read) }
        try kindOptions.check(stores)
        let compared = stores.removeLast()
        if stores.count > 1 {
            let policy = try arguments.choice(StorePairOptions.onDuplicate, as: MergedStoreKind.DuplicatePolicy.self) ?? .abort
            store = TileStoreLocation.merging(stores, onDuplicate: policy)
        } else {
            store = stores[0]
        }
        other = compared
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        if let other {
            return compare(try StoreComparison.compare(store, other, filter: filter, limits: limits))
        }
        let status = StatusLine(store: store.address, quiet: quiet)
        defer { status.finish() }
        status.show(decodes ? "decoding tiles" : "checking tiles")
        // Every problem is printed as it is found (a deep check names each bad tile) in JSON
        // lines or text; without either, the report's first few per category at the end.
        let streams = printsJSON || (decodes && !quiet)
        let address = store.address, printsJSON = printsJSON
        let stream: (@Sendable (StoreVerifier.Problem) -> Void)? = streams ? { @Sendable problem in
            Terminal.out(printsJSON ? JSONWriter.text(VerifyOutput.json(problem)) : VerifyOutput.line(problem, store: address))
        } : nil
        let report = try StoreVerifier.verify(store, fix: fixes, deep: decodes, limits: limits, progress: { status.count($0) },
                                              onProblem: stream, isCancelled: { cancellation.isSet })
        status.finish()
        if printsJSON {
            Terminal.out(JSONWriter.text(VerifyOutput.json(report)))
            return report.isClean ? 0 : 1
        }
        if !quiet {
            if !streams {
                for problem in report.problems { Terminal.out(VerifyOutput.line(problem, store: store.address)) }
                for line in VerifyOutput.moreLines(report) { Terminal.out(line) }
            }
            for note in report.notes { Terminal.out("Note: \(note)") }
            for fix in report.fixes { Terminal.out("Fixed: \(fix)") }
        }
        let warnings = report.warningCount > 0 ? ", \(report.warningCount) warning\(report.warningCount == 1 ? "" : "s")" : ""
        if report.isClean {
            Terminal.out("\(store.address): OK, \(report.tilesChecked) tiles\(report.gridsChecked > 0 ? " and \(report.gridsChecked) UTFGrids" : "") checked\(warnings)")
            return 0
        }
        let counts = StoreVerifier.Problem.Category.allCases.filter { !$0.isWarning }.compactMap { category in
            report.counts[category].map { "\($0) \(category.rawValue)" }
        }.joined(separator: ", ")
        Terminal.out("\(store.address): \(report.problemCount) problems (\(counts)), \(report.tilesChecked) tiles"
            + (report.gridsChecked > 0 ? " and \(report.gridsChecked) UTFGrids" : "") + " checked\(warnings)")
        return 1
    }

    private func compare(_ result: StoreComparison) -> Int32 {
        let a = result.first.address, b = result.second.address
        if !quiet {
            for pair in result.differences {
                switch (pair.source, pair.destination) {
                case (let entry?, nil): Terminal.out("only in \(a): \(pair.coordinate) (\(entry.size) bytes)")
                case (nil, let entry?): Terminal.out("only in \(b): \(pair.coordinate) (\(entry.size) bytes)")
                case (let left?, let right?):
                    Terminal.out("different: \(pair.coordinate) (\(left.size) bytes \(left.hash?.hex ?? "?") vs \(right.size) bytes \(right.hash?.hex ?? "?"))")
                default: break
                }
            }
            let shown = result.differences.count
            let total = result.onlyInFirst + result.onlyInSecond + result.different
            if total > shown { Terminal.out("... and \(total - shown) more differences") }
            for item in result.invalid.named { Terminal.out("invalid: \(item.item): \(item.reason)") }
        }
        let grids = result.involvesGrids ? " and \(result.gridsSame) UTFGrids" : ""
        if result.isIdentical && result.invalid.count == 0 {
            Terminal.out("\(a) and \(b) hold the same \(result.same) tiles\(grids)")
            return 0
        }
        let gridCounts = result.involvesGrids
            ? "; UTFGrids: \(result.gridsOnlyInFirst) only in \(a), \(result.gridsOnlyInSecond) only in \(b), \(result.gridsDifferent) different, \(result.gridsSame) the same"
            : ""
        Terminal.out("\(a) and \(b) differ: \(result.onlyInFirst) only in \(a), \(result.onlyInSecond) only in \(b), "
            + "\(result.different) different, \(result.same) the same" + (result.invalid.count > 0 ? ", \(result.invalid.count) invalid" : "") + gridCounts)
        return 1
    }
}
