import TileSync

/// What `--tile-format` and `--drop-empty` did, as a summary line and as JSON.
enum RasterOutput {
    /// `Raster tiles as webp lossless effort 75: 1.2 MB -> 640 KB, 47% smaller (285 re-encoded, 3
    /// kept their own smaller bytes); 12 empty tiles dropped`, or nil when nothing was asked.
    static func line(_ tally: RasterReencoder.Tally?, _ encoding: RasterReencoder.Encoding?) -> String? {
        guard let tally, let encoding else { return nil }
        var parts: [String] = []
        if encoding.format != nil {
            let change = tally.bytesBefore > 0 ? Int((Double(tally.bytesAfter) * 100 / Double(tally.bytesBefore)).rounded()) - 100 : 0
            let kept = tally.keptSmaller > 0 ? ", \(tally.keptSmaller) kept their own smaller bytes" : ""
            parts.append("Raster tiles as \(encoding.formatDescription): "
                + "\(Formatting.bytes(tally.bytesBefore)) -> \(Formatting.bytes(tally.bytesAfter)), "
                + (change <= 0 ? "\(-change)% smaller" : "\(change)% larger") + " (\(tally.reencoded) re-encoded\(kept))")
        }
        if encoding.dropEmpty { parts.append("\(tally.droppedEmpty) empty tiles dropped") }
        let line = parts.joined(separator: "; ")
        return line.prefix(1).uppercased() + line.dropFirst()
    }

    /// `{"reencoded": n, "kept_smaller": n, "dropped_empty": n, "bytes_before": n, "bytes_after": n}`, or null.
    static func json(_ tally: RasterReencoder.Tally?) -> JSONValue {
        guard let tally else { return .null }
        return .object([("reencoded", .int(tally.reencoded)), ("kept_smaller", .int(tally.keptSmaller)),
                        ("dropped_empty", .int(tally.droppedEmpty)), ("bytes_before", .int(tally.bytesBefore)),
                        ("bytes_after", .int(tally.bytesAfter))])
    }
}
