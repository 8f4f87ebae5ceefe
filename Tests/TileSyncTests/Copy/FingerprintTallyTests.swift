import Foundation
import Testing
@testable import TileSync

@Suite("Counting repeated blobs by sorted runs")
struct FingerprintTallyTests {
    /// 200,000 tiles (six spilled runs and one in memory) over 70,001 distinct blobs, each
    /// blob i of size 10 + i % 7; checked against a count made with a dictionary.
    @Test("Counts across spilled runs match a count in memory")
    func countsAcrossRuns() throws {
        let tally = FingerprintTally()
        var firstSeen = Set<Int>()
        var duplicateTiles = 0, duplicateBytes = 0
        for index in 0..<200_000 {
            let blob = (index &* 7_919) % 70_001
            let size = 10 + blob % 7
            try tally.add(TileCoordinate(unchecked: 18, index, 0), fingerprint: ContentHash(high: UInt64(blob), low: 42), size: size)
            if !firstSeen.insert(blob).inserted {
                duplicateTiles += 1
                duplicateBytes += size
            }
        }
        let counts = try tally.finish()
        #expect(duplicateTiles == 200_000 - 70_001)
        #expect(counts.duplicateTiles == duplicateTiles)
        #expect(counts.duplicateBytes == duplicateBytes)
        #expect(tally.repeated.count == 0)
    }

    @Test("A coordinate that comes again replaces the tile before it")
    func repeatedCoordinate() throws {
        let tally = FingerprintTally()
        let a = ContentHash(high: 1, low: 1), b = ContentHash(high: 2, low: 2)
        try tally.add(TileCoordinate(unchecked: 1, 0, 0), fingerprint: a, size: 5)
        try tally.add(TileCoordinate(unchecked: 1, 0, 1), fingerprint: a, size: 5)
        try tally.add(TileCoordinate(unchecked: 1, 0, 1), fingerprint: b, size: 9)
        try tally.add(TileCoordinate(unchecked: 1, 1, 0), fingerprint: b, size: 9)
        let counts = try tally.finish()
        #expect(counts.duplicateTiles == 1)
        #expect(counts.duplicateBytes == 9)
        #expect(tally.repeated.named.map(\.item) == ["tile 1/0/1"])
    }
}
