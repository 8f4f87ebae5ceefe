import Foundation

/// A store's kind and path, parsed from what the user typed.
///
/// `mbtiles:PATH`, `dir:PATH` and `tar:PATH` force a kind. Without a prefix the kind is
/// inferred: an existing folder is a folder; `.mbtiles`, `.sqlite`, `.db` are MBTiles; `.tar`,
/// `.tar.gz`, `.tgz`, `.tar.zst`, `.tzst` are tar; an existing file is identified by its first
/// bytes (SQLite header, tar or compression magic); any other new path is a folder.
public struct TileStoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// The container kind.
    public let kind: TileStoreKind
    /// The file or folder path.
    public let path: String

    /// A location of a known kind.
    public init(kind: TileStoreKind, path: String) {
        self.kind = kind
        self.path = path
    }

    /// Parses a location string.
    /// - Throws: `TileStoreError` (`.notATileStore`) for an empty path or an existing file of
    ///   unknown kind.
    public init(parsing text: String) throws(TileStoreError) {
        for kind in TileStoreKind.allCases where text.hasPrefix(kind.rawValue + ":") {
            let path = String(text.dropFirst(kind.rawValue.count + 1))
            guard !path.isEmpty else {
                throw TileStoreError(.notATileStore, store: text, message: "the path after '\(kind.rawValue):' is empty")
            }
            self.init(kind: kind, path: path)
            return
        }
        guard !text.isEmpty else {
            throw TileStoreError(.notATileStore, store: text, message: "empty store path")
        }
        self.init(kind: try Self.inferKind(path: text), path: text)
    }

    /// The tar compression implied by the file name (`.gz`/`.tgz`, `.zst`/`.tzst`, else none).
    var tarCompression: TarCompression {
        let name = path.lowercased()
        if name.hasSuffix(".gz") || name.hasSuffix(".tgz") { return .gzip }
        if name.hasSuffix(".zst") || name.hasSuffix(".tzst") { return .zstd }
        return .none
    }

    public var description: String { path }

    private static func inferKind(path: String) throws(TileStoreError) -> TileStoreKind {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue { return .directory }
        let name = path.lowercased()
        if [".mbtiles", ".sqlite", ".sqlite3", ".db"].contains(where: name.hasSuffix) { return .mbtiles }
        if [".tar", ".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar.bz2", ".tar.xz"].contains(where: name.hasSuffix) {
            return .tar
        }
        guard exists else { return .directory }
        if let kind = sniffKind(path: path) { return kind }
        throw TileStoreError(.notATileStore, store: path,
                             message: "not an MBTiles file, tar archive or folder",
                             hint: "name the kind with a prefix: mbtiles:, tar: or dir:")
    }

    private static func sniffKind(path: String) -> TileStoreKind? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
        if head.starts(with: Array("SQLite format 3\0".utf8)) { return .mbtiles }
        if head.count >= 262, Array(head[257..<262]) == Array("ustar".utf8) { return .tar }
        if head.starts(with: [0x1F, 0x8B]) || head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .tar }
        return nil
    }
}
