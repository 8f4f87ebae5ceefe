import Testing
import Foundation

/// The shared real-world fixtures (`../shared/fixtures` from the package root, or
/// `TILESYNC_FIXTURES`). Suites that need them are disabled with a visible reason when absent.
enum Fixtures {
    static let root: String = {
        if let override = ProcessInfo.processInfo.environment["TILESYNC_FIXTURES"], !override.isEmpty {
            return override
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures").path
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var available: Bool { FileManager.default.fileExists(atPath: root + "/README.md") }

    static let missingMessage: Comment = "shared fixtures not found (set TILESYNC_FIXTURES or check out ../shared/fixtures): fixture tests SKIPPED"

    static func path(_ relative: String) -> String { root + "/" + relative }

    /// Every `.mbtiles` file under the fixtures, relative paths, sorted.
    static func allMBTiles() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".mbtiles") }.sorted()
    }
}
