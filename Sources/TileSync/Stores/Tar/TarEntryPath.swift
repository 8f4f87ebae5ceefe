#if canImport(CTileSyncArchive)
/// Cleans tar entry names as GNU tar and bsdtar write them (`./` prefixes, trailing `/` on
/// folders) and refuses names that would leave the archive's root.
enum TarEntryPath {
    enum Cleaned: Equatable {
        case path(String)
        /// The archive root itself (`./`).
        case root
        case hostile(String)
    }

    static func clean(_ raw: String) -> Cleaned {
        if raw.hasPrefix("/") { return .hostile("absolute path") }
        if raw.contains("\\") { return .hostile("backslash in path") }
        let utf8 = Array(raw.utf8)
        if utf8.count >= 2, utf8[1] == UInt8(ascii: ":"),
           (65...90).contains(utf8[0]) || (97...122).contains(utf8[0]) {
            return .hostile("drive letter in path")
        }
        var components: [Substring] = []
        for component in raw.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." { return .hostile("'..' in path") }
            components.append(component)
        }
        return components.isEmpty ? .root : .path(components.joined(separator: "/"))
    }
}
#endif
