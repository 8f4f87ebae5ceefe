extension PathTemplate {
    /// Layouts tried when a tree's paths fit the one in use nowhere, in order of preference.
    static let suggestionCandidates = [
        "{z}/{x}/{y}.{ext}", "{q}.{ext}", "{z}/{x}/{y}", "{q}", "{z}/{x}_{y}.{ext}", "{z}_{x}_{y}.{ext}", "{z}-{x}-{y}.{ext}",
    ]

    /// The first candidate layout that reads every file path given (folders, ending in `/`, are
    /// left out), other than `current`; nil when none does or no file is given.
    static func suggestion(reading paths: [String], other current: PathTemplate) -> PathTemplate? {
        let files = paths.filter { !$0.hasSuffix("/") }
        guard !files.isEmpty else { return nil }
        for text in suggestionCandidates {
            guard let candidate = try? PathTemplate(text), candidate != current else { continue }
            let readsAll = files.allSatisfy { path in
                if case .tile = candidate.match(path) { return true }
                return false
            }
            if readsAll { return candidate }
        }
        return nil
    }
}
