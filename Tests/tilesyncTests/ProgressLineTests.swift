import Foundation
import Testing
@testable import TileSync
@testable import tilesync

@Suite("The progress line")
struct ProgressLineTests {
    @Test("tiles, rate, bytes and ETA; a tile server's places asked count for the percentage and the ETA")
    func text() {
        #expect(ProgressLine.text(TileConverter.Progress(tilesDone: 500, bytesDone: 1_500_000, tilesTotal: 2_000), elapsed: 10)
            == "500/2000 tiles (25%), 50 tiles/s, 1.5 MB, ETA 0:30")
        #expect(ProgressLine.text(TileConverter.Progress(tilesDone: 100, bytesDone: 4_096, tilesTotal: 341, placesDone: 120), elapsed: 2)
            == "100 tiles, 120/341 asked (35%), 50 tiles/s, 4.1 KB, ETA 0:04")
        #expect(ProgressLine.text(TileConverter.Progress(tilesDone: 7, bytesDone: 70, tilesTotal: nil), elapsed: 1) == "7 tiles, 7 tiles/s, 70 B")
    }
}
