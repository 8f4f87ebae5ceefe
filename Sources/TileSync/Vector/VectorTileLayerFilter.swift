public import Foundation

extension VectorTile {
    /// Which layers and attributes of vector tiles to keep (`--layer`, `--exclude-layer`,
    /// `--include-field`, `--exclude-field`). Applied to an uncompressed tile, it copies the
    /// bytes of layers it keeps whole, re-encodes a layer only when it drops an attribute of it
    /// (and then drops the keys and values no feature uses any more), and changes nothing when it
    /// would remove nothing.
    public struct LayerFilter: Sendable, Hashable, CustomStringConvertible {
        /// One attribute, in one layer or in every layer.
        public struct Field: Sendable, Hashable, CustomStringConvertible {
            /// The layer, nil for every layer.
            public let layer: String?
            public let name: String

            public init(layer: String?, name: String) {
                self.layer = layer
                self.name = name
            }

            /// `LAYER:FIELD` (split at the first colon), `*:FIELD` or `FIELD` for every layer; so
            /// `*:name:en` is the attribute `name:en` of every layer.
            /// - Throws: `VectorTile.LayerFilter.ParseError` for an empty layer or field name.
            public init(parsing text: String) throws(ParseError) {
                guard let colon = text.firstIndex(of: ":") else {
                    guard !text.isEmpty else { throw ParseError(text: text, reason: "an empty field name") }
                    self.init(layer: nil, name: text)
                    return
                }
                let layer = String(text[..<colon]), name = String(text[text.index(after: colon)...])
                guard !layer.isEmpty else { throw ParseError(text: text, reason: "an empty layer name before ':' (use *: for every layer)") }
                guard !name.isEmpty else { throw ParseError(text: text, reason: "an empty field name after ':'") }
                self.init(layer: layer == "*" ? nil : layer, name: name)
            }

            public var description: String { (layer ?? "*") + ":" + name }

            func applies(to layer: String) -> Bool { self.layer.map { VectorTile.sameName($0, layer) } ?? true }
        }

        /// A `--include-field`/`--exclude-field` value that names no field.
        public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
            public let text: String
            public let reason: String
            public var description: String { "'\(text)' is not [LAYER:]FIELD: \(reason)" }
        }

        /// The layers kept; empty keeps every layer not dropped.
        public var keptLayers: Set<String> = []
        /// The layers dropped.
        public var droppedLayers: Set<String> = []
        /// The attributes kept in the layers they name; a layer no kept field names keeps all of its own.
        public var keptFields: Set<Field> = []
        /// The attributes dropped.
        public var droppedFields: Set<Field> = []
        /// Write a tile that has no layer left (not written by default).
        public var keepsEmptyTiles = false

        public init() {}

        /// True when the filter keeps everything.
        public var keepsEverything: Bool { keptLayers.isEmpty && droppedLayers.isEmpty && keptFields.isEmpty && droppedFields.isEmpty }

        /// The layer names the filter mentions (to warn about those no tile holds).
        public var namedLayers: Set<String> {
            keptLayers.union(droppedLayers).union(keptFields.compactMap(\.layer)).union(droppedFields.compactMap(\.layer))
        }

        public var description: String {
            var parts: [String] = []
            if !keptLayers.isEmpty { parts.append("layers " + keptLayers.sorted().joined(separator: ",")) }
            if !droppedLayers.isEmpty { parts.append("without layers " + droppedLayers.sorted().joined(separator: ",")) }
            if !keptFields.isEmpty { parts.append("fields " + keptFields.map(\.description).sorted().joined(separator: ",")) }
            if !droppedFields.isEmpty { parts.append("without fields " + droppedFields.map(\.description).sorted().joined(separator: ",")) }
            if keepsEmptyTiles { parts.append("empty tiles kept") }
            return parts.joined(separator: "; ")
        }

        /// Whether the layer `name` is kept (names compared byte for byte).
        public func keepsLayer(_ name: String) -> Bool {
            (keptLayers.isEmpty || keptLayers.contains { VectorTile.sameName($0, name) }) && !droppedLayers.contains { VectorTile.sameName($0, name) }
        }

        /// Whether the attribute `field` of `layer` is kept (names compared byte for byte).
        public func keepsField(_ field: String, inLayer layer: String) -> Bool {
            if droppedFields.contains(where: { VectorTile.sameName($0.name, field) && $0.applies(to: layer) }) { return false }
            let kept = keptFields.filter { $0.applies(to: layer) }
            return kept.isEmpty || kept.contains { VectorTile.sameName($0.name, field) }
        }

        func touchesFields(of layer: String) -> Bool {
            keptFields.contains { $0.applies(to: layer) } || droppedFields.contains { $0.applies(to: layer) }
        }

        /// The filter applied to an uncompressed tile: nil when it removes nothing (the tile is
        /// kept as it is), else the new bytes (empty when every layer was dropped; fields of the
        /// tile other than layers are not carried), and the names of the tile's layers. Layer
        /// names match byte for byte, as MapLibre and tile-join compare them.
        /// - Throws: `VectorTile.DecodingError` for a tile that cannot be read where the filter
        ///   has to read it.
        public func apply(to data: Data) throws(DecodingError) -> (data: Data?, layerNames: [String]) {
            let matcher = NameMatcher(self)
            let result: Result<(Data?, [String]), DecodingError> = data.withUnsafeBytes { bytes in
                do throws(DecodingError) {
                    var seen = NameMatcher.Seen()
                    let filtered = try apply(toBytes: bytes, matcher: matcher, seen: &seen)
                    return .success((filtered, try VectorLayerScanner.layers(in: bytes).compactMap(\.name)))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }

        /// `apply(to:)` on bytes borrowed for the call, deciding by the name's bytes through
        /// `matcher` (made once from this filter); the layers the filter names that the tile
        /// holds are added to `seen`.
        func apply(toBytes bytes: UnsafeRawBufferPointer, matcher: NameMatcher,
                   seen: inout NameMatcher.Seen) throws(DecodingError) -> Data? {
            var output = ProtobufWriter()
            // The layers before the first change are kept as they are: written out once one comes,
            // as runs of adjacent records (fields of the tile between layers are not carried).
            var changed = false
            var earlier: Range<Int>?, earlierRuns: [Range<Int>] = []
            try VectorLayerScanner.forEachLayer(in: bytes) { (index, layer) throws(DecodingError) in
                guard let nameRange = layer.name else {
                    throw DecodingError("a layer without a name", layer: "layer \(index)", offset: layer.message.lowerBound)
                }
                let name = UnsafeRawBufferPointer(rebasing: bytes[nameRange])
                let named = matcher.index(of: name)
                if let named { seen.insert(named) }
                let kept = named.map { matcher.keeps[$0] } ?? matcher.keepsOthers
                var pruned: Layer?
                if kept, named.map({ matcher.touchesFields[$0] }) ?? matcher.touchesFieldsOfOthers {
                    let slice = VectorLayerScanner.Slice(name: String(decoding: name, as: UTF8.self), index: index,
                                                         record: layer.record, message: layer.message)
                    var decoded = try VectorLayerDecoder.decode(bytes, slice: slice)
                    if prune(&decoded) { pruned = decoded }
                }
                if !changed {
                    if kept, pruned == nil {
                        if let run = earlier, run.upperBound == layer.record.lowerBound {
                            earlier = run.lowerBound..<layer.record.upperBound
                        } else {
                            if let run = earlier { earlierRuns.append(run) }
                            earlier = layer.record
                        }
                        return
                    }
                    changed = true
                    if let run = earlier { earlierRuns.append(run) }
                    for run in earlierRuns { output.append(UnsafeRawBufferPointer(rebasing: bytes[run])) }
                }
                if let pruned {
                    output.bytesField(3, VectorLayerEncoder.encode(pruned))
                } else if kept {
                    output.append(UnsafeRawBufferPointer(rebasing: bytes[layer.record]))
                }
            }
            return changed ? Data(output.bytes) : nil
        }

        /// Drops the attributes the filter does not keep, then the keys and values no feature
        /// uses; true when anything was dropped.
        private func prune(_ layer: inout Layer) -> Bool {
            let keptKeys = layer.keys.map { keepsField($0, inLayer: layer.name) }
            guard keptKeys.contains(false) else { return false }
            var keyIndex = [Int](repeating: -1, count: layer.keys.count), valueIndex = [Int](repeating: -1, count: layer.values.count)
            var keys: [String] = [], values: [Value] = []
            for index in layer.features.indices {
                var tags: [UInt32] = []
                let old = layer.features[index].tags
                for pair in stride(from: 0, to: old.count - 1, by: 2) {
                    let key = Int(old[pair]), value = Int(old[pair + 1])
                    guard key < keptKeys.count, keptKeys[key], value < layer.values.count else { continue }
                    if keyIndex[key] < 0 { keyIndex[key] = keys.count; keys.append(layer.keys[key]) }
                    if valueIndex[value] < 0 { valueIndex[value] = values.count; values.append(layer.values[value]) }
                    tags += [UInt32(keyIndex[key]), UInt32(valueIndex[value])]
                }
                layer.features[index].tags = tags
            }
            layer.keys = keys
            layer.values = values
            return true
        }
    }
}
