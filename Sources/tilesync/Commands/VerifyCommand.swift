import TileSync

/// `tilesync verify STORE [OTHER]`.
enum VerifyCommand {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check a store's integrity, or whether two stores hold the same tiles.",
        discussion: """
            With one store: SQLite integrity (MBTiles), coordinates in range, no NULL or empty
            tiles, bytes in the declared format, stored hashes (flat-with-hash, normalized) against
            the bytes, tiles within the declared minzoom/maxzoom/bounds, and agg_tiles_hash.
            Prints one line per problem (counted when many); --fix rewrites wrong stored hashes
            and metadata (MBTiles and folders).
            With two stores of any kinds: compares their tiles by MD5 and prints the differences.
            Exit status 0 when clean or identical, 1 otherwise.
            """,
        arguments: [
            .init(name: "store", help: "An MBTiles file, a folder or a tar archive."),
            .init(name: "other", help: "A second store to compare with the first.", isOptional: true),
        ],
        options: [
            .init(name: "fix", valueName: nil, help: "Repair wrong stored hashes and metadata in place."),
            .init(name: "min-zoom", valueName: "z", help: "With two stores: compare from this zoom."),
            .init(name: "max-zoom", valueName: "z", help: "With two stores: compare up to this zoom."),
            .init(name: "bbox", valueName: "w,s,e,n", help: "With two stores: compare only tiles touching this box."),
            .init(name: "layout", valueName: "template", help: "Path template of folder or tar stores."),
            .init(name: "scheme", valueName: "xyz|tms", help: "Row scheme of folder or tar stores."),
            .init(name: "quiet", valueName: nil, help: "Print only the final line."),
        ],
        examples: [
            "tilesync verify world.mbtiles",
            "tilesync verify world.mbtiles --fix",
            "tilesync verify world.mbtiles tiles/",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let store = try TileStoreLocation(parsing: arguments.positionals[0])
        let layout = try CommandOptions.layout(arguments, layoutName: "layout", schemeName: "scheme", spec: spec)
        let quiet = arguments.flag("quiet")
        if arguments.positionals.count == 2 {
            guard !arguments.flag("fix") else { throw UsageError("--fix works on one store", spec: spec) }
            let other = try TileStoreLocation(parsing: arguments.positionals[1])
            let filter = try CommandOptions.filter(arguments, spec: spec)
            return compare(try StoreComparison.compare(store, other, filter: filter, firstLayout: layout, secondLayout: layout), quiet: quiet)
        }
        let report = try StoreVerifier.verify(store, layout: layout, fix: arguments.flag("fix"))
        if !quiet {
            for problem in report.problems { Terminal.out("Problem: \(store.path): \(problem)") }
            for category in VerificationProblem.Category.allCases {
                let count = report.counts[category, default: 0]
                if count > VerificationReport.keptPerCategory {
                    Terminal.out("Problem: \(store.path): ... and \(count - VerificationReport.keptPerCategory) more \(category.rawValue) problems")
                }
            }
            for note in report.notes { Terminal.out("Note: \(note)") }
            for fix in report.fixes { Terminal.out("Fixed: \(fix)") }
        }
        if report.isClean {
            Terminal.out("\(store.path): OK, \(report.tilesChecked) tiles checked")
            return 0
        }
        let counts = VerificationProblem.Category.allCases.compactMap { category in
            report.counts[category].map { "\($0) \(category.rawValue)" }
        }.joined(separator: ", ")
        Terminal.out("\(store.path): \(report.problemCount) problems (\(counts)), \(report.tilesChecked) tiles checked")
        return 1
    }

    private static func compare(_ result: StoreComparison, quiet: Bool) -> Int32 {
        let a = result.first.path, b = result.second.path
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
        if result.isIdentical && result.invalid.count == 0 {
            Terminal.out("\(a) and \(b) hold the same \(result.same) tiles")
            return 0
        }
        Terminal.out("\(a) and \(b) differ: \(result.onlyInFirst) only in \(a), \(result.onlyInSecond) only in \(b), "
            + "\(result.different) different, \(result.same) the same" + (result.invalid.count > 0 ? ", \(result.invalid.count) invalid" : ""))
        return 1
    }
}
