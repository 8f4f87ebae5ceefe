import Foundation

/// The library's Swift sources read as text for the architecture tests: each file's top folder
/// under `Sources/TileSync`, its code with comments and string literals blanked out, the types
/// it declares at the top level and the capitalised names it mentions.
struct SourceTree {
    struct File {
        let path: String
        let folder: String
        let code: String
        let declaredTypes: [String]
        let mentionedNames: Set<String>
    }

    let root: String
    let files: [File]

    init(root: String) throws {
        self.root = root
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [File] = []
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
            let code = Self.blankingCommentsAndStrings(text)
            let parts = relative.split(separator: "/")
            files.append(File(path: relative, folder: parts.count > 1 ? String(parts[0]) : ".", code: code,
                              declaredTypes: Self.topLevelTypes(code), mentionedNames: Self.capitalisedWords(code)))
        }
        self.files = files.sorted { $0.path < $1.path }
    }

    /// The folders that declare each top-level type.
    var declaringFolders: [String: Set<String>] {
        var folders: [String: Set<String>] = [:]
        for file in files {
            for type in file.declaredTypes { folders[type, default: []].insert(file.folder) }
        }
        return folders
    }

    /// Names declared by `struct`, `class`, `enum`, `protocol`, `actor` or `typealias` at the
    /// start of a line (nested types are reached through the type that holds them).
    /// - Parameter modifier: when given, only declarations carrying it (`public`).
    static func topLevelTypes(_ code: String, requiringModifier modifier: Substring? = nil) -> [String] {
        let keywords: Set<Substring> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
        let modifiers: Set<Substring> = ["public", "internal", "package", "private", "fileprivate", "final", "indirect", "nonisolated"]
        var names: [String] = []
        for line in code.split(separator: "\n", omittingEmptySubsequences: true) where line.first?.isLetter == true || line.first == "@" {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            var given: Set<Substring> = []
            while let word = words.first, word.hasPrefix("@") || modifiers.contains(word) {
                given.insert(word)
                words = words.dropFirst()
            }
            if let modifier, !given.contains(modifier) { continue }
            // `@_spi(Name) public` is open only to an `@_spi(Name) import` (the fuzzer's), not API.
            if modifier == "public", given.contains(where: { $0.hasPrefix("@_spi(") }) { continue }
            guard let keyword = words.first, keywords.contains(keyword), let name = words.dropFirst().first else { continue }
            let identifier = name.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if identifier.first?.isUppercase == true { names.append(String(identifier)) }
        }
        return names
    }

    static func capitalisedWords(_ code: String) -> Set<String> {
        var words: Set<String> = []
        var current = ""
        for character in code {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                if current.first?.isUppercase == true { words.insert(current) }
                current = ""
            }
        }
        if current.first?.isUppercase == true { words.insert(current) }
        return words
    }

    /// The text with comments and the contents of string literals replaced by spaces (line
    /// breaks kept), so that only code is read.
    static func blankingCommentsAndStrings(_ text: String) -> String {
        enum State { case code, lineComment, blockComment(Int), string, multilineString }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var state = State.code
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
        while index < scalars.count {
            let scalar = scalars[index]
            switch state {
            case .code:
                if scalar == "/", at(1) == "/" { state = .lineComment; index += 2; out.append(contentsOf: "  ".unicodeScalars); continue }
                if scalar == "/", at(1) == "*" { state = .blockComment(1); index += 2; out.append(contentsOf: "  ".unicodeScalars); continue }
                if scalar == "\"", at(1) == "\"", at(2) == "\"" { state = .multilineString; index += 3; out.append(contentsOf: "   ".unicodeScalars); continue }
                if scalar == "\"" { state = .string }
                out.append(scalar)
            case .lineComment:
                if scalar == "\n" { state = .code; out.append(scalar) } else { out.append(" ") }
            case .blockComment(let depth):
                if scalar == "*", at(1) == "/" {
                    state = depth == 1 ? .code : .blockComment(depth - 1)
                    index += 2
                    out.append(contentsOf: "  ".unicodeScalars)
                    continue
                }
                if scalar == "/", at(1) == "*" { state = .blockComment(depth + 1) }
                out.append(scalar == "\n" ? "\n" : " ")
            case .string:
                if scalar == "\\" { index += 2; out.append(contentsOf: "  ".unicodeScalars); continue }
                if scalar == "\"" || scalar == "\n" { state = .code; out.append(scalar) } else { out.append(" ") }
            case .multilineString:
                if scalar == "\\" { index += 2; out.append(contentsOf: "  ".unicodeScalars); continue }
                if scalar == "\"", at(1) == "\"", at(2) == "\"" { state = .code; index += 3; out.append(contentsOf: "   ".unicodeScalars); continue }
                out.append(scalar == "\n" ? "\n" : " ")
            }
            index += 1
        }
        return String(out)
    }
}
