import TileSync

/// How `verify` prints its report: one line a problem, counts past the kept ones, and JSON.
enum VerifyOutput {
    static func line(_ problem: StoreVerifier.Problem, store: String) -> String {
        "\(problem.category.isWarning ? "Warning" : "Problem"): \(store): \(problem)"
    }

    /// `... and N more` for each category with more problems than the report keeps.
    static func moreLines(_ report: StoreVerifier.Report) -> [String] {
        StoreVerifier.Problem.Category.allCases.compactMap { category in
            let count = report.counts[category, default: 0]
            guard count > StoreVerifier.Report.keptPerCategory else { return nil }
            return "\(category.isWarning ? "Warning" : "Problem"): \(report.store.address): ... and "
                + "\(count - StoreVerifier.Report.keptPerCategory) more \(category.rawValue) \(category.isWarning ? "warnings" : "problems")"
        }
    }

    /// One problem as a JSON object: `category`, `item` (null for the store as a whole),
    /// `message`, `warning`, `fixable`.
    static func json(_ problem: StoreVerifier.Problem) -> JSONValue {
        .object([("problem", .object([
            ("category", .string(problem.category.rawValue)), ("item", problem.item.map { .string($0) } ?? .null),
            ("message", .string(problem.message)), ("warning", .bool(problem.category.isWarning)), ("fixable", .bool(problem.isFixable)),
        ]))])
    }

    /// The report's summary as a JSON object (the problems themselves went out one a line).
    static func json(_ report: StoreVerifier.Report) -> JSONValue {
        .object([("summary", .object([
            ("store", .string(report.store.address)), ("ok", .bool(report.isClean)),
            ("tiles_checked", .int(report.tilesChecked)), ("grids_checked", .int(report.gridsChecked)),
            ("problems", .int(report.problemCount)), ("warnings", .int(report.warningCount)),
            ("counts", .object(StoreVerifier.Problem.Category.allCases.compactMap { category in
                report.counts[category].map { (category.rawValue, .int($0)) }
            })),
            ("notes", .array(report.notes.map { .string($0) })), ("fixes", .array(report.fixes.map { .string($0) })),
        ]))])
    }
}
