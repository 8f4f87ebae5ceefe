import Foundation

/// What tiles rewritten earlier in a conversion became, by their bytes, so that a content that
/// repeats (sea, empty land, one pattern at many places) is rewritten once. Contents are found by
/// a fast fingerprint and told apart by their bytes (`Content`), so a repeat costs no MD5 and a
/// collision no wrong tile. Bounded: it forgets everything when it holds 1,024 contents or 16 MB
/// of bytes (the contents and what they became). Where contents do not repeat (fewer than one
/// tile in 32 saved over 2,048), it rests for the next 16,384 tiles, then looks again, so a store
/// of distinct tiles pays for it on one tile in nine.
final class RepeatedRewrites: @unchecked Sendable {
    /// A tile's bytes as a key: hashed by their fingerprint, equal when the bytes are.
    struct Content: Hashable, Sendable {
        let data: Data
        let fingerprint: ContentHash

        /// A key that refers to `data` (to look up).
        init(_ data: Data) {
            self.data = data
            fingerprint = BlobFingerprint.of(data)
        }

        private init(data: Data, fingerprint: ContentHash) {
            self.data = data
            self.fingerprint = fingerprint
        }

        /// The same key on a copy of just its bytes (to keep: a tile's bytes may be a slice of
        /// a larger buffer the key would otherwise hold on to).
        var compacted: Content {
            Content(data: data.withUnsafeBytes { Data($0) }, fingerprint: fingerprint)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(fingerprint)
        }

        static func == (left: Content, right: Content) -> Bool {
            left.fingerprint == right.fingerprint && left.data == right.data
        }
    }

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

    static let probedTiles = 2048
    static let restingTiles = 16384

    private let lock = NSLock()
    private var remembered: [Content: Remembered] = [:]
    private var bytes = 0
    /// Tiles looked up in the current probe, and how many of them needed no rewriting.
    private var probed = 0
    private var saved = 0
    /// Tiles to pass before looking up again.
    private var resting = 0

    /// Whether a batch of `count` tiles is looked up (false while resting; the batch counts
    /// towards the rest).
    func looksUp(_ count: Int) -> Bool {
        lock.withLock {
            guard resting > 0 else { return true }
            resting = max(0, resting - count)
            return false
        }
    }

    /// Counts a batch looked up: `count` tiles, `saved` of them not rewritten (remembered, or
    /// repeating a content of the batch).
    func record(_ count: Int, saved savedTiles: Int) {
        lock.withLock {
            probed += count
            saved += savedTiles
            guard probed >= Self.probedTiles else { return }
            if saved * 32 < probed { resting = Self.restingTiles }
            probed = 0
            saved = 0
        }
    }

    func outcome(of content: Content) -> Remembered? {
        lock.withLock { remembered[content] }
    }

    func remember(_ outcome: Remembered, of content: Content) {
        let kept = content.compacted
        let size = kept.data.count + outcome.bytes
        lock.withLock {
            if remembered.count >= Self.contentLimit || bytes + size > Self.byteLimit {
                remembered.removeAll(keepingCapacity: true)
                bytes = 0
            }
            remembered[kept] = outcome
            bytes += size
        }
    }
}
