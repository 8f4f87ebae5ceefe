import Foundation

/// What tiles re-encoded earlier in a conversion became, by the MD5 of their bytes, so that a
/// content that repeats (sea, empty land, one pattern at many places) is re-encoded once.
/// Bounded: it forgets everything when it holds 1,024 contents or 16 MB of bytes.
final class RepeatedRewrites: @unchecked Sendable {
    /// What a content became; the coordinate is the asking tile's.
    enum Remembered {
        case rewritten(Data)
        case unchanged(rasterPassed: Bool, smaller: Bool)
        case dropped(TileTransformNote)

        init(_ outcome: TileRewriter.Outcome) {
            switch outcome {
            case .rewritten(let tile): self = .rewritten(tile.data)
            case .unchanged(let rasterPassed, let smaller): self = .unchanged(rasterPassed: rasterPassed, smaller: smaller)
            case .dropped(let note): self = .dropped(note)
            }
        }

        func outcome(for tile: Tile) -> TileRewriter.Outcome {
            switch self {
            case .rewritten(let data): .rewritten(Tile(coordinate: tile.coordinate, data: data, modificationTime: tile.modificationTime))
            case .unchanged(let rasterPassed, let smaller): .unchanged(rasterPassed: rasterPassed, smaller: smaller)
            case .dropped(let note): .dropped(note)
            }
        }

        var bytes: Int {
            if case .rewritten(let data) = self { return data.count }
            return 0
        }
    }

    static let contentLimit = 1024
    static let byteLimit = 16 << 20

    private let lock = NSLock()
    private var remembered: [ContentHash: Remembered] = [:]
    private var bytes = 0

    func outcome(of hash: ContentHash) -> Remembered? {
        lock.withLock { remembered[hash] }
    }

    func remember(_ outcome: Remembered, of hash: ContentHash) {
        lock.withLock {
            if remembered.count >= Self.contentLimit || bytes + outcome.bytes > Self.byteLimit {
                remembered.removeAll(keepingCapacity: true)
                bytes = 0
            }
            remembered[hash] = outcome
            bytes += outcome.bytes
        }
    }
}
