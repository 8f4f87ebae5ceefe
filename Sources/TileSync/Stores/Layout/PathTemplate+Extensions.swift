extension PathTemplate {
    /// The extensions random access tries, after the declared format's.
    static let knownExtensions = TileFormat.allCases.map(\.fileExtension) + ["jpeg", "mvt"]

    /// The extensions a tile's file (or object) may have under this template, `first` before the
    /// others; one (ignored) when the template has no `{ext}`. Folders, tars and `s3://` trees
    /// try them in this order.
    func candidateExtensions(first: String?) -> [String] {
        guard hasExtension else { return [first ?? ""] }
        guard let first else { return Self.knownExtensions }
        return [first] + Self.knownExtensions.filter { $0 != first }
    }
}
