import Foundation
import Testing

@Suite("docs/architecture.md")
struct ArchitectureSnippetTests {
    /// Each line of a Swift block after a `// Sources/...` line, as (file, line), leaving out
    /// lines with `...` (elisions), comments and lone braces.
    static func quotedLines(_ text: String) -> [(file: String, line: String)] {
        var quoted: [(String, String)] = []
        for block in text.components(separatedBy: "```swift\n").dropFirst() {
            var file: String?
            for raw in block.components(separatedBy: "```")[0].split(separator: "\n") {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("// Sources/") {
                    file = String(line.dropFirst(3))
                } else if let file, !line.contains("..."), !line.hasPrefix("//"), line.count > 2 {
                    quoted.append((file, line))
                }
            }
        }
        return quoted
    }

    @Test("Every line of its snippets that names a source file is in that file")
    func snippetsMatchTheCode() throws {
        let root = Fixtures.packageRoot
        let docs = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let quoted = Self.quotedLines(docs)
        #expect(quoted.count >= 12)
        for (file, line) in quoted {
            let source = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let lines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(lines.contains(line), "\(file) has no line \(line)")
        }
    }
}
