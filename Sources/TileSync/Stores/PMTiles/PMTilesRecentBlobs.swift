/// The blobs a PMTiles written in tile-ID order stored lately, by MD5, so that a repeat (ocean,
/// empty tiles) points back to them: at most `limit` (65,536 by default), with a second chance for the ones that
/// repeated. When full, blobs that no tile repeated since the last eviction are forgotten (all
/// of them when that frees less than half). A forgotten blob that comes again is stored again,
/// which `hasEvicted` tells the writer to check for.
struct PMTilesRecentBlobs {
    struct Place {
        var offset: UInt64
        var length: UInt32
        var repeats: UInt32
    }

    /// Blobs remembered at most by default (about 4 MB).
    static let defaultLimit = 1 << 16

    /// Blobs remembered at most.
    let limit: Int
    private var places: [ContentHash: Place] = [:]
    /// True once a blob was forgotten.
    private(set) var hasEvicted = false

    init(limit: Int = Self.defaultLimit) {
        self.limit = max(2, limit)
    }

    /// The place of a stored blob with this MD5 (counted as a repeat), or nil.
    mutating func place(of hash: ContentHash) -> (offset: UInt64, length: UInt32)? {
        guard let index = places.index(forKey: hash) else { return nil }
        places.values[index].repeats &+= 1
        let place = places.values[index]
        return (place.offset, place.length)
    }

    /// Remembers a blob just stored.
    mutating func remember(_ hash: ContentHash, offset: UInt64, length: UInt32) {
        if places.count >= limit { evict() }
        places[hash] = Place(offset: offset, length: length, repeats: 0)
    }

    private mutating func evict() {
        hasEvicted = true
        var kept = places.filter { $0.value.repeats > 0 }
        if kept.count > limit / 2 { kept = [:] }
        for index in kept.indices { kept.values[index].repeats = 0 }
        places = kept
        places.reserveCapacity(limit)
    }
}
