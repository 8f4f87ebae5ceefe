import Foundation

extension TileSynchronizer {
    /// The public URLs a CDN must forget after a sync: every tile the sync wrote or deleted, and
    /// the metadata document when the metadata changed, one a line, for a purge API.
    ///
    /// `publicURL` is either a tile URL template (`{z}`, `{x}`, `{y}`, `{-y}` for TMS rows, `{q}`
    /// for quadkeys, `{ext}`) or a base URL, to which each tile's path in the destination's
    /// layout (`{z}/{x}/{y}.{ext}` unless the destination sets another) is added, and
    /// `metadata.json` when the metadata changed.
    public struct PurgeList: Sendable, Equatable {
        /// The file written (replaced) when the sync changes anything.
        public var path: String
        /// The template or base URL.
        public var publicURL: String

        public init(path: String, publicURL: String) {
            self.path = path
            self.publicURL = publicURL
        }

        /// True when `publicURL` is a template naming each tile's place itself.
        var isTemplate: Bool { publicURL.contains("{z}") || publicURL.contains("{q}") }

        /// The URL of one tile.
        func url(for coordinate: TileCoordinate, fileExtension: String, layout: PathTemplate) -> String {
            guard isTemplate else {
                let base = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
                return base + "/" + layout.path(for: coordinate, fileExtension: fileExtension)
            }
            return publicURL.replacingOccurrences(of: "{z}", with: String(coordinate.z))
                .replacingOccurrences(of: "{x}", with: String(coordinate.x))
                .replacingOccurrences(of: "{-y}", with: String(coordinate.tmsY))
                .replacingOccurrences(of: "{y}", with: String(coordinate.y))
                .replacingOccurrences(of: "{q}", with: coordinate.quadkey)
                .replacingOccurrences(of: "{ext}", with: fileExtension)
        }

        /// Writes the URLs of the plan's added, replaced and deleted tiles (in (z, x, y) order),
        /// then the metadata document's when it changed, streamed to a temporary file renamed
        /// over `path` (memory does not grow with the change).
        /// - Returns: the number of URLs written.
        /// - Throws: `TileStoreError` `.io` naming the file.
        func write(plan: SyncPlanTable, fileExtension: String, layout: PathTemplate, metadataChanged: Bool) throws -> Int {
            let temporary = AtomicFile.temporaryPath(beside: path)
            var count = 0
            do {
                let output = try SequentialFileOutput(path: temporary, direct: false, writesBackEarly: false)
                func line(_ text: String) throws {
                    var bytes = Array(text.utf8)
                    bytes.append(0x0A)
                    try bytes.withUnsafeBytes { try output.append($0) }
                    count += 1
                }
                try plan.rows([.add, .replace, .delete]) { row in try line(url(for: row.coordinate, fileExtension: fileExtension, layout: layout)) }
                if metadataChanged, !isTemplate { try line((publicURL.hasSuffix("/") ? publicURL : publicURL + "/") + "metadata.json") }
                try output.close()
                try AtomicFile.rename(temporary, to: path)
            } catch {
                AtomicFile.remove(temporary)
                throw TileStoreError(.io, store: path, message: "cannot write the purge list: \(error)")
            }
            return count
        }
    }
}
