import Foundation
import Testing

/// The library's public surface held against the list the compiler's symbol graph gave
/// (`docs/public-api.txt`, written by `Scripts/public-api`) and against docs/library.md's table.
@Suite("Public API: the public types are the listed ones, and docs/library.md's table names each")
struct PublicAPITests {
    static let root = Fixtures.packageRoot

    /// Types declared `public` at the top level of the library's sources.
    static func declaredPublicTypes() throws -> Set<String> {
        let tree = try SourceTree(root: root.appendingPathComponent("Sources/TileSync").path)
        return Set(tree.files.flatMap { SourceTree.topLevelTypes($0.code, requiringModifier: "public") })
    }

    /// The list's top-level types (lines without a dot) and nested ones (`Owner.Name`).
    static func listed() throws -> (types: Set<String>, nested: Set<String>) {
        let text = try String(contentsOf: root.appendingPathComponent("docs/public-api.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        return (Set(lines.filter { !$0.contains(".") }), Set(lines.filter { $0.contains(".") }))
    }

    static func listedTypes() throws -> Set<String> { try listed().types }

    /// The backticked bare type names in the rows of the table under "What an app sees": the
    /// top-level ones, and those inside a "(nested: ...)" group as `Owner.Name` of the name
    /// before the group.
    static func tabled() throws -> (types: Set<String>, nested: Set<String>) {
        let text = try String(contentsOf: root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        guard let start = text.range(of: "| layer | public types |") else { return ([], []) }
        let rows = text[start.upperBound...].split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }
        var types: Set<String> = [], nested: Set<String> = []
        for row in rows {
            var owner: String?, inNested = false
            for (index, piece) in row.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
                guard index % 2 == 1 else {
                    if piece.contains("(nested:") { inNested = true } else if piece.contains(")") { inNested = false }
                    continue
                }
                guard piece.first?.isUppercase == true, piece.allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
                if inNested, let owner { nested.insert(owner + "." + piece) } else { types.insert(String(piece)); owner = String(piece) }
            }
        }
        return (types, nested)
    }

    static func tabledTypes() throws -> Set<String> { try tabled().types }

    @Test("The public types in the sources are those of docs/public-api.txt (run Scripts/public-api after a change)")
    func sourcesMatchTheList() throws {
        let declared = try Self.declaredPublicTypes(), listed = try Self.listedTypes()
        #expect(declared.subtracting(listed).sorted() == [], "public but not listed")
        #expect(listed.subtracting(declared).sorted() == [], "listed but not public")
        #expect(listed.count < 80)
    }

    @Test("docs/library.md's table names every public type and no other")
    func tableMatchesTheList() throws {
        let tabled = try Self.tabledTypes(), listed = try Self.listedTypes()
        #expect(listed.subtracting(tabled).sorted() == [], "public but not in the table")
        #expect(tabled.subtracting(listed).sorted() == [], "in the table but not public")
    }

    @Test("docs/library.md's table names every public nested type under its owner, and no other")
    func tableMatchesTheNestedTypes() throws {
        let tabled = try Self.tabled().nested, listed = try Self.listed().nested
        #expect(listed.count > 40)
        #expect(listed.subtracting(tabled).sorted() == [], "public but not in the table")
        #expect(tabled.subtracting(listed).sorted() == [], "in the table but not public")
    }

    @Test("The source reading finds public declarations and only those")
    func readingCanFail() {
        let code = "public struct Open {}\nstruct Closed {}\n@frozen public enum Kept { case a }\n    public struct Nested {}\npublic final class Shared {}\n"
        #expect(SourceTree.topLevelTypes(code, requiringModifier: "public") == ["Open", "Kept", "Shared"])
        #expect(SourceTree.topLevelTypes(code) == ["Open", "Closed", "Kept", "Shared"])
    }
}
