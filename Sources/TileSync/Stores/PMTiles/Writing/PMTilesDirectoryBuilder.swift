/// Builds the root directory and the leaf directories of an archive as the reference writers
/// size them: everything in the root when under 16,384 entries and within 16,384 bytes with the
/// header; otherwise one level of leaves of max(4,096, entries / 3,500) entries, grown by 20%
/// until the root fits. Leaves are built from the entries scratch file one at a time.
enum PMTilesDirectoryBuilder {
    /// Bytes the compressed root may take: 16,384 less the header.
    static let rootBudget = 16_384 - PMTilesHeader.size

    struct Directories {
        var root: [UInt8]
        /// The leaf section, nil when the root holds every entry.
        var leaves: ScratchFile?
        var leafCount = 0
        var leavesLength: UInt64 { leaves?.count ?? 0 }
    }

    /// - Throws: `POSIXFileError`, `CompressionError`.
    static func build(_ entries: PMTilesEntryFile, folder: String) throws -> Directories {
        let count = entries.count
        if count < 16_384 {
            let root = try GzipCodec.compress(PMTilesDirectory.encode(try entries.read(from: 0, count: count)))
            if root.count <= rootBudget { return Directories(root: root) }
        }
        let leaves = try ScratchFile(in: folder, purpose: "pmtiles-leaves")
        var leafSize = Double(max(4096, count / 3500))
        while true {
            try leaves.removeAll()
            var pointers: [PMTilesEntry] = []
            let size = Int(leafSize)
            for start in stride(from: 0, to: count, by: size) {
                let chunk = try entries.read(from: start, count: min(size, count - start))
                let bytes = try GzipCodec.compress(PMTilesDirectory.encode(chunk))
                pointers.append(PMTilesEntry(tileID: chunk[0].tileID, offset: leaves.count, length: UInt32(bytes.count), runLength: 0))
                try leaves.append(bytes)
            }
            try leaves.flush()
            let root = try GzipCodec.compress(PMTilesDirectory.encode(pointers))
            if root.count <= rootBudget { return Directories(root: root, leaves: leaves, leafCount: pointers.count) }
            leafSize *= 1.2
        }
    }
}
