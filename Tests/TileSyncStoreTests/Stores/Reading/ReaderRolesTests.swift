import Foundation
import Testing
@testable import TileSync

@Suite("Reader roles: each kind's reader declares the roles it plays, and a rewriting reader passes its source's on")
struct ReaderRolesTests {
    /// The names of the roles `roles` declares.
    static func names(_ roles: TileReaderRoles) -> Set<String> {
        let present: [(String, Bool)] = [
            ("downloadKeeping", roles.downloadKeeping != nil), ("rereadSource", roles.rereadSource != nil),
            ("storedHashes", roles.storedHashes != nil), ("joinableStores", roles.joinableStores != nil),
            ("consistentReads", roles.consistentReads != nil), ("integrity", roles.integrity != nil),
            ("mergeStreaming", roles.mergeStreaming != nil), ("inspection", roles.inspection != nil),
            ("cancellation", roles.cancellation != nil), ("aggregateHashing", roles.aggregateHashing != nil),
            ("grids", roles.grids != nil), ("compressionDeclaration", roles.compressionDeclaration != nil),
        ]
        return Set(present.filter(\.1).map(\.0))
    }

    static let expected: [String: Set<String>] = [
        "mbtiles": ["rereadSource", "consistentReads", "integrity", "mergeStreaming", "inspection", "cancellation", "aggregateHashing", "grids"],
        "dir": ["mergeStreaming", "inspection", "grids"],
        "tar": ["inspection", "grids"],
        "pmtiles": ["integrity", "mergeStreaming", "inspection", "cancellation", "compressionDeclaration"],
        "s3": ["inspection"],
        "gpkg": ["consistentReads", "integrity", "inspection", "cancellation"],
    ]

    @Test("The roles of each writable kind's reader", arguments: KindStores.kindNames)
    func rolesOfEachKind(kind: String) throws {
        let stores = try KindStores()
        let tile = try TileCoordinate(z: 1, x: 0, y: 0)
        let location = try stores.write([Tile(coordinate: tile, data: GeneratedStore.bytes(for: tile))], kind: kind, name: "roles")
        #expect(Self.names(try location.openReader().roles) == Self.expected[kind], "\(kind)")
    }

    @Test("A normalized MBTiles with MD5 ids adds its stored hashes; a rewriting reader keeps only what rewriting leaves true")
    func storedHashesAndRewriting() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: directory.file("n.mbtiles"), mbtilesSchema: .normalized)
        let reader = try TileStoreLocation(parsing: directory.file("n.mbtiles")).openReader()
        #expect(Self.names(reader.roles).contains("storedHashes"))
        var settings = TileTransformSettings()
        settings.compression = .gzip
        let rewriter = try #require(try TileRewriter(settings: settings, reader: reader))
        let rewriting = RewritingTileReader(reader, rewriter: rewriter, memoPath: nil)
        #expect(Self.names(rewriting.roles) == ["consistentReads", "inspection", "cancellation", "grids", "compressionDeclaration"])
    }
}
