public import Foundation

extension VectorTile {
    /// Every defect of an uncompressed tile that a deep verification reports, in the order
    /// found: the first wire or decoding error (after which nothing more can be read), else per
    /// layer a missing or unknown version, an extent of 0, a name another layer has, and per
    /// feature a geometry that does not fit its type (and, in version 2 layers, a polygon whose
    /// first ring is not exterior). Empty for a sound tile. Time and memory grow with the tile's
    /// bytes, whatever counts it claims.
    public static func problems(in data: Data) -> [DecodingError] {
        data.withUnsafeBytes { bytes in
            var problems: [DecodingError] = []
            let slices: [VectorLayerScanner.Slice]
            do throws(DecodingError) {
                slices = try VectorLayerScanner.layers(in: bytes)
            } catch {
                return [error]
            }
            var names: Set<[UInt8]> = []
            for slice in slices {
                let decoded: (layer: Layer, hasVersion: Bool)
                do throws(DecodingError) {
                    decoded = try VectorLayerDecoder.decodeNotingVersion(bytes, slice: slice)
                } catch {
                    problems.append(error)
                    return problems
                }
                problems += layerProblems(decoded.layer, hasVersion: decoded.hasVersion, names: &names, offset: slice.message.lowerBound)
            }
            return problems
        }
    }

    private static func layerProblems(_ layer: Layer, hasVersion: Bool, names: inout Set<[UInt8]>, offset: Int) -> [DecodingError] {
        var problems: [DecodingError] = []
        if !hasVersion { problems.append(DecodingError("a layer without a version", layer: layer.name, offset: offset)) }
        if !(1...2).contains(layer.version) {
            problems.append(DecodingError("an unknown version \(layer.version)", layer: layer.name, offset: offset))
        }
        if layer.extent == 0 { problems.append(DecodingError("an extent of 0", layer: layer.name, offset: offset)) }
        if !names.insert(Array(layer.name.utf8)).inserted {
            problems.append(DecodingError("a second layer of this name", layer: layer.name, offset: offset))
        }
        for (index, feature) in layer.features.enumerated() {
            do throws(DecodingError) {
                let rings = try feature.rings()
                if layer.version == 2, feature.type == .polygon, let first = rings.first, VectorGeometry.doubledArea(first) <= 0 {
                    throw DecodingError("a polygon whose first ring is not exterior (its area is not positive)", offset: 0)
                }
            } catch {
                problems.append(DecodingError("geometry: " + error.reason + " (command \(error.offset))", layer: layer.name,
                                              feature: index, offset: offset))
            }
        }
        return problems
    }
}
