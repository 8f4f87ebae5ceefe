extension VectorTile.LayerFilter {
    /// A filter's decisions by the bytes of a layer's name, made once per filter so that a tile's
    /// layer names are compared, not made into strings: each layer the filter names has an
    /// index (its bit in `Seen`), whether it is kept and whether a field filter applies to it;
    /// every other layer shares one answer.
    struct NameMatcher: Sendable {
        /// The UTF-8 bytes of the named layers, in order of their names.
        let names: [[UInt8]]
        let keeps: [Bool]
        let touchesFields: [Bool]
        let keepsOthers: Bool
        let touchesFieldsOfOthers: Bool
        /// Past this many names a dictionary finds them instead of comparing each.
        private static let linearLimit = 16
        private let indexByName: [[UInt8]: Int]

        init(_ filter: VectorTile.LayerFilter) {
            let sorted = filter.namedLayers.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            names = sorted
            let strings = sorted.map { String(decoding: $0, as: UTF8.self) }
            keeps = strings.map(filter.keepsLayer)
            touchesFields = strings.map(filter.touchesFields)
            keepsOthers = filter.keptLayers.isEmpty
            touchesFieldsOfOthers = filter.keptFields.contains { $0.layer == nil } || filter.droppedFields.contains { $0.layer == nil }
            indexByName = sorted.count > Self.linearLimit
                ? Dictionary(sorted.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) : [:]
        }

        /// The index of the named layer whose name is these bytes, nil for a layer the filter
        /// does not name.
        @inline(__always)
        func index(of name: UnsafeRawBufferPointer) -> Int? {
            guard names.count > Self.linearLimit else {
                for (index, candidate) in names.enumerated() where candidate.count == name.count {
                    if candidate.withUnsafeBytes({ $0.elementsEqual(name) }) { return index }
                }
                return nil
            }
            return indexByName[Array(name)]
        }

        /// The named layers met, as indexes into `names`: the first 64 as bits.
        struct Seen: Sendable, Equatable {
            var bits: UInt64 = 0
            var beyond: Set<Int> = []

            mutating func insert(_ index: Int) {
                if index < 64 { bits |= 1 << UInt64(index) } else { beyond.insert(index) }
            }

            func contains(_ index: Int) -> Bool {
                index < 64 ? bits & (1 << UInt64(index)) != 0 : beyond.contains(index)
            }
        }
    }
}
