import Foundation
import Testing
@testable import TileSync

/// The library's folders in layers, as docs/architecture.md lists them (top to bottom, one
/// layer a line): a type may name types of its own folder and of folders in lower layers only.
@Suite("Architecture: layers point one way, kinds are named only in their folders and the registry")
struct LayerDirectionTests {
    static let sources = Fixtures.packageRoot.appendingPathComponent("Sources").path
    static let architecture = Fixtures.packageRoot.appendingPathComponent("docs/architecture.md").path

    /// The layers of the fenced block after `<!-- layers, top to bottom -->`.
    static func documentedLayers() throws -> [[String]] {
        let text = try String(contentsOfFile: architecture, encoding: .utf8)
        guard let marker = text.range(of: "<!-- layers, top to bottom -->") else { return [] }
        let lines = text[marker.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("```") }.dropFirst()
        return lines.prefix { !$0.hasPrefix("```") }.map { $0.split(separator: " ").map(String.init) }.filter { !$0.isEmpty }
    }

    /// Each reference against the layers: `FILE names FOLDER's TYPE`.
    static func violations(in tree: SourceTree, layers: [[String]]) -> [String] {
        var depth: [String: Int] = [:]
        for (index, layer) in layers.enumerated() { for folder in layer { depth[folder] = index } }
        let declaring = tree.declaringFolders
        var found: [String] = []
        for file in tree.files {
            guard let own = depth[file.folder] else { continue }
            for name in file.mentionedNames.sorted() {
                for folder in declaring[name] ?? [] where folder != file.folder {
                    guard let other = depth[folder], other > own else {
                        found.append("\(file.path) names \(folder)'s \(name)")
                        continue
                    }
                }
            }
        }
        return found
    }

    @Test("Every folder of the library stands in exactly one documented layer")
    func everyFolderInOneLayer() throws {
        let layers = try Self.documentedLayers()
        let documented = layers.flatMap { $0 }
        #expect(Set(documented).count == documented.count)
        let tree = try SourceTree(root: Self.sources + "/TileSync")
        let folders = Set(tree.files.map(\.folder)).subtracting(["."])
        #expect(Set(documented) == folders)
        #expect(layers.count == 13)
    }

    @Test("No type names a type of a folder above it or beside it in its layer")
    func referencesPointDown() throws {
        let tree = try SourceTree(root: Self.sources + "/TileSync")
        #expect(Self.violations(in: tree, layers: try Self.documentedLayers()) == [])
    }

    @Test("The check fails on a reference upwards or sideways, and not on one downwards")
    func checkCanFail() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = [
            "High/Engine.swift": "final class Engine { let store: StoreReader? = nil }\n",
            "Low/StoreReader.swift": "/// Not Engine in a comment.\nstruct StoreReader { let text = \"Engine\"; let engine: Engine? }\n",
            "Side/Neighbour.swift": "enum Neighbour { static let reader = StoreReader.self; static let other = Sibling.self }\n",
            "Low2/Sibling.swift": "struct Sibling {}\n",
        ]
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: root + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: root + "/" + path, atomically: true, encoding: .utf8)
        }
        let tree = try SourceTree(root: root)
        #expect(Self.violations(in: tree, layers: [["High"], ["Side"], ["Low", "Low2"]])
            == ["Low/StoreReader.swift names High's Engine"])
        #expect(Self.violations(in: tree, layers: [["High"], ["Low", "Low2", "Side"]]).sorted()
            == ["Low/StoreReader.swift names High's Engine", "Side/Neighbour.swift names Low's StoreReader",
                "Side/Neighbour.swift names Low2's Sibling"])
    }

    @Test("Kinds are tested by type, name or suffix only in their own folders and the registry")
    func kindsNamedOnlyInTheirFolders() throws {
        let kindFolders = try FileManager.default.contentsOfDirectory(atPath: Self.sources + "/TileSync/Stores").filter { folder in
            let files = (try? FileManager.default.contentsOfDirectory(atPath: Self.sources + "/TileSync/Stores/" + folder)) ?? []
            return files.contains { $0.hasSuffix("StoreKind.swift") && $0 != "TileStoreKind.swift" }
        }
        #expect(kindFolders.sorted() == ["Directory", "GeoPackage", "MBTiles", "ObjectStorage", "PMTiles", "Tar", "TileServer"])
        var patterns = [#"is \w+StoreKind\b"#, #"as\? *(any +)?\w*(Reader|Writer|Updater|StoreKind)\b"#,
                        #"kind: *\.(mbtiles|directory|tar|pmtiles|s3|tileServer|gpkg)\b"#, #"\w+StoreKind\(\)"#]
        patterns.append(#"\bkind\.name *(==|!=) *""#)
        let expressions = try patterns.map { try NSRegularExpression(pattern: $0) }
        var found: [String] = []
        for module in ["TileSync", "tilesync"] {
            let tree = try SourceTree(root: Self.sources + "/" + module)
            for file in tree.files {
                let inKind = module == "TileSync" && kindFolders.contains { file.path.hasPrefix("Stores/\($0)/") }
                guard !inKind, !file.path.hasSuffix("TileStoreRegistry.swift") else { continue }
                let range = NSRange(file.code.startIndex..., in: file.code)
                for expression in expressions where expression.firstMatch(in: file.code, range: range) != nil {
                    found.append("\(module)/\(file.path): \(expression.pattern)")
                }
            }
        }
        #expect(found == [])
    }

    @Test("The requirement count of TileReader in docs/architecture.md is the protocol's")
    func readerRequirementsCounted() throws {
        let code = try SourceTree(root: Self.sources + "/TileSync").files.first { $0.path == "Stores/Reading/TileReader.swift" }?.code ?? ""
        let body = code.components(separatedBy: "public protocol TileReader").last?.components(separatedBy: "\n}").first ?? ""
        let requirements = body.split(separator: "\n").filter { $0.hasPrefix("    var ") || $0.hasPrefix("    func ") }.count
        let docs = try String(contentsOfFile: Self.architecture, encoding: .utf8)
        #expect(docs.contains("`TileReader` has \(requirements) requirements"), "TileReader has \(requirements) requirements")
    }
}
