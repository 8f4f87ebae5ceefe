import Foundation
import Testing
@testable import TileSync

@Suite("verify over every kind of the registry, and verify A B over every pair")
struct VerifyMatrixTests {
    static let kinds = KindStores.kindNames

    @Test("A sound store verifies clean: every tile read, nothing reported", arguments: kinds)
    func sound(kind: String) throws {
        let stores = try KindStores()
        let location = try stores.write(GeneratedStore.pyramid(maxZoom: 3), kind: kind, name: "a")
        let report = try StoreVerifier.verify(location)
        #expect(report.tilesChecked == 85)
        #expect(report.counts == [:])
        #expect(report.problems.isEmpty)
        #expect(report.sniffedFormat?.format == .png)
    }

    @Test("Tiles outside the declared zooms and bounds are a metadata warning, not a failure", arguments: kinds)
    func metadataWarning(kind: String) throws {
        let stores = try KindStores()
        var metadata = GeneratedStore.defaultMetadata
        metadata["minzoom"] = "1"
        metadata["maxzoom"] = "2"
        let location = try stores.write(GeneratedStore.pyramid(maxZoom: 3), kind: kind, name: "a", metadata: metadata)
        let report = try StoreVerifier.verify(location)
        #expect(report.tilesChecked == 85)
        #expect(report.isClean)
        #expect(report.problemCount == 0)
        #expect(report.warningCount >= 1)
        #expect(report.problems.allSatisfy { $0.category == .metadata })
        #expect(report.problems.contains { $0.description.contains("zoom") })
    }

    @Test("verify A B counts a tile only in A, one only in B and one that differs, between every two kinds",
          arguments: kinds, kinds)
    func pair(first: String, second: String) throws {
        let stores = try KindStores()
        let base = GeneratedStore.pyramid(maxZoom: 3)
        let changed = try TileCoordinate(parsing: "2/1/1"), missing = try TileCoordinate(parsing: "3/7/7")
        let extra = try TileCoordinate(parsing: "4/0/0")
        let a = try stores.write(base, kind: first, name: "a")
        var otherTiles = base.filter { $0.coordinate != missing }.map { tile in
            tile.coordinate == changed ? Tile(coordinate: changed, data: GeneratedStore.bytes(for: changed, salt: "v2")) : tile
        }
        otherTiles.append(Tile(coordinate: extra, data: GeneratedStore.bytes(for: extra)))
        let b = try stores.write(otherTiles, kind: second, name: "b")
        let comparison = try StoreComparison.compare(a, b)
        #expect((comparison.same, comparison.onlyInFirst, comparison.onlyInSecond, comparison.different) == (83, 1, 1, 1))
        #expect(!comparison.isIdentical)
        #expect(comparison.differences.map(\.coordinate.description).sorted() == ["2/1/1", "3/7/7", "4/0/0"])
        #expect(try StoreComparison.compare(a, a).isIdentical)
    }
}
