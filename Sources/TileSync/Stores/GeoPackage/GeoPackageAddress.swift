import Foundation

/// A GeoPackage location split into its file and the tile table it names: `file.gpkg#table`.
///
/// The text after the last `#` is a table name when the text before it names a `.gpkg` file or an
/// existing file; otherwise the whole address is the path (a file may have `#` in its name).
struct GeoPackageAddress: Sendable, Equatable {
    /// The GeoPackage file.
    let path: String
    /// The tile pyramid table named after `#`; nil when none is named.
    let table: String?

    init(_ address: String) {
        guard let hash = address.lastIndex(of: "#") else {
            path = address
            table = nil
            return
        }
        let file = String(address[..<hash])
        let name = String(address[address.index(after: hash)...])
        var info = stat()
        guard !file.isEmpty, file.lowercased().hasSuffix(".gpkg") || stat(file, &info) == 0 else {
            path = address
            table = nil
            return
        }
        path = file
        table = name.isEmpty ? nil : name
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
