extension PathTemplate {
    /// The first candidate layout that reads every file path given (folders, ending in `/`, are
    /// left out), other than `current`; nil when none does or no file is given.
    static func suggestion(reading paths: [String], other current: PathTemplate) -> PathTemplate? {
        let files = paths.filter { !$0.hasSuffix("/") }
        guard !files.isEmpty else { return nil }
        for candidate in TileTreeLayoutDetection.candidates where candidate != current {
            let readsAll = files.allSatisfy { path in
                if case .tile = candidate.match(path) { return true }
                return false
            }
            if readsAll { return candidate }
        }
        return nil
    }
}
