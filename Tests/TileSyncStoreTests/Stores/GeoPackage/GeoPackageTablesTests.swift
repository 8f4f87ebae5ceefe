import Foundation
import Testing
@testable import TileSync

@Suite("GeoPackage: several tile tables in one file, the others never touched")
struct GeoPackageTablesTests {
    /// Every row of the tables another tool put in the file, and their catalog rows.
    static func othersDump(_ path: String) throws -> [[String?]] {
        try HandMadeGeoPackage.rows(path, "SELECT fid, hex(geom), name FROM parks ORDER BY fid")
            + HandMadeGeoPackage.rows(path, "SELECT id, text FROM notes")
            + HandMadeGeoPackage.rows(path, "SELECT * FROM gpkg_geometry_columns")
            + HandMadeGeoPackage.rows(path, "SELECT table_name, data_type, identifier, last_change FROM gpkg_contents WHERE table_name IN ('parks', 'notes') ORDER BY 1")
    }

    static func write(_ tiles: [Tile], to address: String, overwrite: Bool = false) throws {
        let writer = try TileStoreLocation(parsing: address).makeWriter(TileWriterSettings(overwrite: overwrite))
        try writer.begin(metadata: GeneratedStore.defaultMetadata, format: SniffedTileFormat(.png))
        for tile in tiles { try writer.write(tile) }
        try writer.finish()
    }

    static func salted(_ salt: String, maxZoom: Int) -> [Tile] {
        GeneratedStore.pyramid(maxZoom: maxZoom).map { Tile(coordinate: $0.coordinate, data: GeneratedStore.bytes(for: $0.coordinate, salt: salt)) }
    }

    @Test("Tables added to a file with features and attributes: each reads back, the others' rows stay as they were")
    func addTables() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("field.gpkg")
        try HandMadeGeoPackage(path: path).addFeaturesAndAttributes()
        let others = try Self.othersDump(path)
        #expect(others.count == 6)
        try Self.write(Self.salted("a", maxZoom: 1), to: path + "#a")
        try Self.write(Self.salted("b", maxZoom: 2), to: path + "#b")
        #expect(try Self.othersDump(path) == others)
        #expect(try StoreContents.tiles(path + "#a") == Dictionary(uniqueKeysWithValues: Self.salted("a", maxZoom: 1).map { ($0.coordinate, $0.data) }))
        #expect(try StoreContents.tiles(path + "#b").count == 21)
        #expect(try HandMadeGeoPackage.rows(path, "PRAGMA foreign_key_check").isEmpty)
        #expect {
            _ = try TileStoreLocation(parsing: path).openReader()
        } throws: { error in
            (error as? TileStoreError)?.description == path + ": a GeoPackage with 2 tile tables (\"a\", \"b\") (name one: FILE.gpkg#TABLE)"
        }
        #expect {
            _ = try TileStoreLocation(parsing: path + "#parks").openReader()
        } throws: { error in
            (error as? TileStoreError)?.description == path + "#parks: table \"parks\": is not a tile table; its tile tables: \"a\", \"b\""
        }
        let reader = try TileStoreLocation(parsing: path + "#b").openReader()
        #expect(reader.storeDetails.first?.value == "\"a\" (tiles), \"b\" (tiles)")
        let uncarried = try #require(reader.roles.inspection).uncarriedContent().map { "\($0.item) \($0.rows.map(String.init) ?? "-")" }
        #expect(uncarried == ["tiles \"a\" 5", "attributes \"notes\" 1", "features \"parks\" 2"])
    }

    @Test("An existing table is replaced only with overwrite, the other table intact; a features table never; abort leaves the file as it was")
    func replaceAndAbort() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("two.gpkg")
        try HandMadeGeoPackage(path: path).addFeaturesAndAttributes()
        try Self.write(Self.salted("a", maxZoom: 1), to: path + "#a")
        try Self.write(Self.salted("b", maxZoom: 1), to: path + "#b")
        #expect {
            try Self.write(Self.salted("a2", maxZoom: 0), to: path + "#a")
        } throws: { error in
            (error as? TileStoreError)?.description == path + "#a: table \"a\": the tile table exists (add --force to replace it (the file's other tables stay), or name another table: FILE.gpkg#TABLE)"
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try Self.write(Self.salted("p", maxZoom: 0), to: path + "#parks", overwrite: true)
        } throws: { error in
            (error as? TileStoreError)?.description == path + "#parks: table \"parks\": the name is taken by a table that is not a tile table, or reserved (name another table: FILE.gpkg#TABLE)"
        }
        let writer = try TileStoreLocation(parsing: path + "#c").makeWriter()
        try writer.begin(metadata: GeneratedStore.defaultMetadata, format: SniffedTileFormat(.png))
        for tile in Self.salted("c", maxZoom: 2) { try writer.write(tile) }
        writer.abort()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        try Self.write(Self.salted("a2", maxZoom: 0), to: path + "#a", overwrite: true)
        #expect(try StoreContents.tiles(path + "#a") == Dictionary(uniqueKeysWithValues: Self.salted("a2", maxZoom: 0).map { ($0.coordinate, $0.data) }))
        #expect(try StoreContents.tiles(path + "#b") == Dictionary(uniqueKeysWithValues: Self.salted("b", maxZoom: 1).map { ($0.coordinate, $0.data) }))
        #expect(try HandMadeGeoPackage.rows(path, "SELECT count(*) FROM gpkg_tile_matrix WHERE table_name = 'a'") == [["1"]])
        #expect(try HandMadeGeoPackage.rows(path, "SELECT count(*) FROM gpkg_metadata_reference WHERE table_name = 'a'") == [["1"]])
        #expect(try HandMadeGeoPackage.rows(path, "SELECT count(*) FROM gpkg_metadata") == [["2"]])
        #expect(try HandMadeGeoPackage.rows(path, "SELECT count(*) FROM parks") == [["2"]])
    }

    @Test("A table is one store: existence, identity and the sync state are the table's")
    func resources() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("r.gpkg")
        try Self.write(Self.salted("a", maxZoom: 0), to: path + "#a")
        let a = try TileStoreLocation(parsing: path + "#a").resource, b = try TileStoreLocation(parsing: path + "#b").resource
        let whole = try TileStoreLocation(parsing: path).resource
        #expect(a.exists && !b.exists && whole.exists)
        #expect(!a.refersToSameStore(as: b) && a.refersToSameStore(as: whole))
        #expect(a.syncStatePath == directory.file(".r.gpkg#a.tilesync-state"))
        #expect(try TileStoreLocation(parsing: path + "#a").kind.name == "gpkg")
    }
}

@Suite("GeoPackage addresses: file.gpkg#table")
struct GeoPackageAddressTests {
    @Test("The table follows the first # after a .gpkg name or an existing file; a # elsewhere is part of the path")
    func addresses() throws {
        let directory = try TemporaryDirectory()
        #expect(GeoPackageAddress("a.gpkg#t") == GeoPackageAddress(path: "a.gpkg", table: "t"))
        #expect(GeoPackageAddress("a.gpkg#t#2") == GeoPackageAddress(path: "a.gpkg", table: "t#2"))
        #expect(GeoPackageAddress("a.GPKG#") == GeoPackageAddress(path: "a.GPKG", table: nil))
        #expect(GeoPackageAddress("dir#1/a.gpkg") == GeoPackageAddress(path: "dir#1/a.gpkg", table: nil))
        try Data().write(to: URL(fileURLWithPath: directory.file("plain.sqlite")))
        #expect(GeoPackageAddress(directory.file("plain.sqlite") + "#x") == GeoPackageAddress(path: directory.file("plain.sqlite"), table: "x"))
        #expect(GeoPackageAddress("missing.db#x") == GeoPackageAddress(path: "missing.db#x", table: nil))
    }
}
