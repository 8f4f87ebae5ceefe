import Foundation
import TileSync

/// `tilesync meta STORE [KEY | KEY=VALUE ... | --delete KEY ...]`.
struct MetaCommand: Command {
    static let delete = OptionDefinition.flag("delete", help: "Remove the keys given as arguments.")
    static let json = OptionDefinition.flag("json", help: "List the metadata as one JSON object (NULL as null).")

    static let spec = CommandSpec(
        name: "meta",
        abstract: "List, print, set or remove a store's metadata; the tiles are not touched.",
        discussion: """
            With the store alone: every key and value, one `key: value` line each, in the store's
            order (a value's line breaks shown as \\n). With one KEY: that value and nothing else on
            stdout (NULL prints an empty line), exit 1 when the key is absent. With KEY=VALUE
            arguments: sets them; with --delete KEY ...: removes them; both in one change, or
            none (a key to remove that is absent changes nothing and exits 1). An MBTiles changes
            its metadata table in one transaction, a folder rewrites metadata.json through its
            journal, a tar or PMTiles archive is rewritten and renamed, an s3:// prefix gets a new
            metadata.json. agg_tiles_hash (computed from the tiles) and scheme (how a folder's
            paths are read) cannot be edited.
            """,
        arguments: [
            .init(name: "store", help: "An MBTiles file, a folder, a tar or PMTiles archive, an s3:// prefix."),
            .init(name: "key", help: "A key to print, KEY=VALUE to set, or (with --delete) a key to\nremove.", isOptional: true, isVariadic: true),
        ],
        options: [delete, json, LayoutOptions.Role.store.layout, LayoutOptions.Role.store.scheme]
            + StoreKindOptions.definitions(for: [.change]),
        examples: [
            "tilesync meta world.mbtiles",
            "tilesync meta world.mbtiles name",
            "tilesync meta world.mbtiles name=World 'attribution=© OpenStreetMap contributors'",
            "tilesync meta tiles/ --delete legend",
        ])

    enum Action {
        case list
        case get(String)
        case edit(setting: [(key: String, value: String)], removing: [String])
    }

    let store: TileStoreLocation
    let action: Action
    let printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        store = try StoreArgument.store(at: 0, of: arguments, use: .change)
        printsJSON = arguments.flag(Self.json)
        let words = Array(arguments.positionals.dropFirst())
        if arguments.flag(Self.delete) {
            guard !words.isEmpty else { throw UsageError("--delete needs the keys to remove", spec: Self.spec) }
            if let word = words.first(where: { $0.contains("=") }) {
                throw UsageError("'\(word)': with --delete the arguments are keys, not KEY=VALUE", spec: Self.spec)
            }
            action = .edit(setting: [], removing: words)
        } else if words.isEmpty {
            action = .list
        } else if words.count == 1, !words[0].contains("=") {
            action = .get(words[0])
        } else {
            action = .edit(setting: try words.map { word in
                guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                    throw UsageError("'\(word)' is not KEY=VALUE (one key prints its value; several set KEY=VALUE pairs)", spec: Self.spec)
                }
                return (String(word[..<equals]), String(word[word.index(after: equals)...]))
            }, removing: [])
        }
        if printsJSON, case .edit = action { throw UsageError("--json lists the metadata; it does not apply to an edit", spec: Self.spec) }
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        switch action {
        case .list:
            let metadata = try TileMetadataEditor.metadata(of: store)
            if printsJSON {
                Terminal.out(JSONWriter.text(.object(metadata.entries.map { ($0.key, $0.value.map { .string($0) } ?? .null) })))
            } else {
                for entry in metadata {
                    Terminal.out("\(entry.key): " + (entry.value ?? "NULL").replacingOccurrences(of: "\n", with: "\\n"))
                }
            }
        case .get(let key):
            let metadata = try TileMetadataEditor.metadata(of: store)
            guard metadata.contains(key) else {
                throw TileStoreError(.invalidMetadata, store: store.address, item: "metadata \(key)", message: "no such key")
            }
            if printsJSON {
                Terminal.out(JSONWriter.text(metadata[key].map { .string($0) } ?? .null))
            } else {
                Terminal.out(metadata[key] ?? "")
            }
        case .edit(let setting, let removing):
            let (before, after) = try TileMetadataEditor.edit(store, setting: setting, removing: removing)
            if before == after {
                Terminal.out("\(store.address): metadata unchanged")
            } else {
                var parts: [String] = []
                if !setting.isEmpty { parts.append("set " + Array(Set(setting.map(\.key))).sorted().joined(separator: ", ")) }
                if !removing.isEmpty { parts.append("removed " + removing.joined(separator: ", ")) }
                Terminal.out("\(store.address): " + parts.joined(separator: "; "))
            }
        }
        return 0
    }
}
