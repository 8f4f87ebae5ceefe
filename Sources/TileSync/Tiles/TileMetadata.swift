import Foundation

/// Tile-set metadata: the MBTiles `metadata` table, a folder's `metadata.json`, a tar's
/// `metadata.json` entry. Keys keep their order and every value is text or null, so unknown
/// keys round-trip between stores without loss.
public struct TileMetadata: Equatable, Sendable, Sequence {
    /// One `name`/`value` row. `value` is nil where the store holds NULL.
    public struct Entry: Equatable, Sendable {
        /// The `name` column.
        public let key: String
        /// The `value` column; nil for NULL.
        public var value: String?

        /// One row.
        public init(key: String, value: String?) {
            self.key = key
            self.value = value
        }
    }

    /// The rows, in order.
    public private(set) var entries: [Entry] = []

    /// No metadata.
    public init() {}

    /// Creates metadata from rows; a repeated key keeps its first position and its last value.
    public init(_ entries: [Entry]) {
        for entry in entries {
            if let value = entry.value { self[entry.key] = value } else { setNull(entry.key) }
        }
    }

    /// The value of a key, or nil when absent or NULL. Setting nil removes the key; use
    /// `setNull(_:)` to store an explicit NULL.
    public subscript(key: String) -> String? {
        get { entries.first { $0.key == key }?.value ?? nil }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// Stores an explicit NULL for a key (as some MBTiles files do).
    public mutating func setNull(_ key: String) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = nil
        } else {
            entries.append(Entry(key: key, value: nil))
        }
    }

    /// True when the key is present, even with a NULL value.
    public func contains(_ key: String) -> Bool { entries.contains { $0.key == key } }

    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }
    /// True without any key.
    public var isEmpty: Bool { entries.isEmpty }
    /// How many keys.
    public var count: Int { entries.count }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// `minzoom` as a number when it is a decimal integer in 0...30.
    public var minZoom: Int? { zoomValue("minzoom") }
    /// `maxzoom` as a number when it is a decimal integer in 0...30.
    public var maxZoom: Int? { zoomValue("maxzoom") }
    /// `bounds` parsed as `W,S,E,N`, or nil when absent or invalid.
    public var bounds: BoundingBox? { self["bounds"].flatMap { try? BoundingBox(parsing: $0) } }
    /// `format` read as a tile format, or nil when absent or not recognized.
    public var format: TileFormat? { self["format"].flatMap(TileFormat.init(declared:)) }

    private func zoomValue(_ key: String) -> Int? {
        guard let text = self[key]?.trimmingCharacters(in: .whitespaces),
              let z = DecimalText.integer(text), z <= TileCoordinate.maxZoom
        else { return nil }
        return z
    }
}
