import Foundation

/// What the browser tests need: Debian's Chromium, and MapLibre GL JS from the PyPI `maplibre`
/// package (its `srcjs` folder), found once.
enum PreviewBrowser {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let mapLibreAssets: String? = {
        let found = try? ServeEndToEndTests.run("/usr/bin/env", ["python3", "-c", "import importlib.util, os; "
            + "spec = importlib.util.find_spec('maplibre'); print(os.path.join(os.path.dirname(spec.origin), 'srcjs') if spec else '')"])
        let folder = (found ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return !folder.isEmpty && FileManager.default.fileExists(atPath: folder + "/maplibre-gl.js") ? folder : nil
    }()
    static let script = ToolRunner.packageRoot.appendingPathComponent("Tests/Browser/preview-screenshot.py").path
}
