import Foundation

/// A GeoPackage location split into its file and the tile table it names: `file.gpkg#table`.
///
/// The text after the first `#` whose text before it names a `.gpkg` file or an existing file is
/// the table (which may hold `#` itself); otherwise the whole address is the path (a file may have
/// `#` in its name).
struct GeoPackageAddress: Sendable, Equatable {
    /// The GeoPackage file.
    let path: String
    /// The tile pyramid table named after `#`; nil when none is named.
    let table: String?

    init(path: String, table: String?) {
        self.path = path
        self.table = table
    }

    /// Splits what the user typed.
    init(_ address: String) {
        var info = stat()
        for hash in address.indices where address[hash] == "#" {
            let file = String(address[..<hash])
            guard !file.isEmpty, file.lowercased().hasSuffix(".gpkg") || stat(file, &info) == 0 else { continue }
            let name = String(address[address.index(after: hash)...])
            path = file
            table = name.isEmpty ? nil : name
            return
        }
        path = address
        table = nil
    }

    /// The table as SQL quotes an identifier: `"name"`, inner quotes doubled.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// How messages name the table: `table "name"`.
    static func describe(_ table: String) -> String {
        "table " + quoted(table)
    }
}
