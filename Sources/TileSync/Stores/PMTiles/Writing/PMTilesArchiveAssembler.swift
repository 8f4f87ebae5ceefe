import Foundation

/// Writes a clustered PMTiles v3 file from collected tiles: header, root directory, metadata
/// (gzip), leaf directories (gzip), then the tile data in tile-ID order, front to back.
enum PMTilesArchiveAssembler {
    /// Writes the archive to `path` (a new file) and returns its layout (counts, repeats).
    /// - Throws: `POSIXFileError`, `CompressionError`.
    /// - Throws: `POSIXFileError`, `CompressionError`, `CancellationError` when `isCancelled` turns true.
    static func write(_ collector: PMTilesTileCollector, metadata: TileMetadata, format: SniffedTileFormat,
                      to path: String, isCancelled: @Sendable () -> Bool) throws -> PMTilesLayout {
        var rereads = true
        if case .spooled(let blobs) = collector.blobBytes {
            try blobs.finishWriting()
            rereads = false
        }
        if isCancelled() { throw CancellationError() }
        // The sorted placements are let go as soon as the layout has read them.
        let layout = try PMTilesLayout(placements: collector.placements(), folder: collector.folder, rereads: rereads)
        if isCancelled() { throw CancellationError() }
        let directories = try PMTilesDirectoryBuilder.build(layout.runs.entries, folder: collector.folder)
        let metadataBytes = try GzipCodec.compress(PMTilesMetadataMapping.encode(metadata).json, level: 9)
        let header = PMTilesHeaderBuilder.header(metadata: metadata, format: format, runs: layout.runs, sections: .packed(
            rootLength: UInt64(directories.root.count), metadataLength: UInt64(metadataBytes.count),
            leavesLength: directories.leavesLength, dataLength: layout.runs.dataLength))

        let output = try SequentialFileOutput(path: path)
        do {
            for part in [header.serialized(), directories.root, metadataBytes] {
                var failure: POSIXFileError?
                part.withUnsafeBytes { raw in
                    do throws(POSIXFileError) { try output.append(raw) } catch { failure = error }
                }
                if let failure { throw failure }
            }
            if let leaves = directories.leaves { try output.appendCopy(length: leaves.count) { try leaves.read(at: $0, count: $1, into: $2) } }
            if isCancelled() { throw CancellationError() }
            switch collector.blobBytes {
            case .spooled(let blobs):
                try copyTileData(layout, blobs: blobs, to: output, isCancelled: isCancelled)
            case .reread(let source):
                try copyRereadTileData(layout, from: source, to: output, isCancelled: isCancelled)
            }
            try output.close()
        } catch {
            try? output.close()
            throw error
        }
        return layout
    }

    /// Bytes of tile data laid out in memory at a time, and of one read from the spool.
    static let windowBytes = 4 << 20
    static let readBytes = 1 << 20
    /// A gap between two blobs of a window smaller than this is read rather than skipped.
    static let readGap: UInt64 = 64 << 10

    /// Copies the blobs in data order, a window at a time: the window's blobs are read from the
    /// spool in the spool's order, in aligned ranges that take in small gaps (a Hilbert block of
    /// tiles that came column by column is a few long runs), placed in the window, and appended.
    private static func copyTileData(_ layout: PMTilesLayout, blobs: ScratchSpool, to output: SequentialFileOutput,
                                     isCancelled: @Sendable () -> Bool) throws {
        let alignment = BufferWriteQueue.directAlignment
        let window = UnsafeMutableRawBufferPointer.allocate(byteCount: windowBytes, alignment: alignment)
        let staging = UnsafeMutableRawBufferPointer.allocate(byteCount: readBytes + 2 * alignment, alignment: alignment)
        defer {
            window.deallocate()
            staging.deallocate()
        }
        var pending: [(blob: UInt64, length: Int, at: Int)] = []
        var filled = 0
        func flushWindow() throws {
            pending.sort { $0.blob < $1.blob }
            var first = 0
            while first < pending.count {
                let start = pending[first].blob
                var end = start + UInt64(pending[first].length)
                var last = first + 1
                while last < pending.count, pending[last].blob <= end + readGap,
                      max(end, pending[last].blob + UInt64(pending[last].length)) - start <= UInt64(readBytes) {
                    end = max(end, pending[last].blob + UInt64(pending[last].length))
                    last += 1
                }
                let base = try blobs.readAligned(at: start, count: Int(end - start), into: staging)
                for item in pending[first..<last] {
                    (window.baseAddress! + item.at).copyMemory(from: staging.baseAddress! + base + Int(item.blob - start), byteCount: item.length)
                }
                first = last
            }
            try output.append(UnsafeRawBufferPointer(rebasing: window[0..<filled]))
            pending.removeAll(keepingCapacity: true)
            filled = 0
        }
        try forEachCopy(layout) { copy in
            let length = Int(copy.length)
            if length > readBytes {
                try flushWindow()
                if isCancelled() { throw CancellationError() }
                var done = 0
                while done < length {
                    let count = min(readBytes, length - done)
                    let base = try blobs.readAligned(at: copy.blobOffset + UInt64(done), count: count, into: staging)
                    try output.append(UnsafeRawBufferPointer(rebasing: staging[base..<base + count]))
                    done += count
                }
                return
            }
            if filled + length > windowBytes { try flushWindow() }
            pending.append((copy.blobOffset, length, filled))
            filled += length
            if filled == windowBytes, isCancelled() { throw CancellationError() }
        }
        if isCancelled() { throw CancellationError() }
        try flushWindow()
    }

    /// Copies the blobs in data order, a window at a time, reading the window's tiles from the
    /// source again: one range query per column the window touches (a run of tile IDs is a
    /// compact block of tiles), each tile checked against the length it was laid out with. The
    /// layout names each blob by a tile ID, ascending, so a window's tiles are found by binary
    /// search. When the source offers a companion (a second connection to the same version), the
    /// window's columns are split in two halves of about as many tiles, read on two threads.
    private static func copyRereadTileData(_ layout: PMTilesLayout, from source: any TileColumnRereading,
                                           to output: SequentialFileOutput, isCancelled: @Sendable () -> Bool) throws {
        let window = UnsafeMutableRawBufferPointer.allocate(byteCount: windowBytes, alignment: BufferWriteQueue.directAlignment)
        defer { window.deallocate() }
        let sources = source.withCompanion()
        var ids: [UInt64] = []
        var places: [(at: Int, length: Int)] = []
        var copied: [Bool] = []
        var filled = 0
        func flushWindow() throws {
            let found = try ids.withUnsafeBufferPointer { ids in
                try places.withUnsafeBufferPointer { places in
                    try copied.withUnsafeMutableBufferPointer { copied in
                        let reread = TileWindowReread(sources: sources, ids: ids, copied: copied) { index, source, bytes in
                            let place = places[index]
                            guard bytes.count == place.length else {
                                throw Self.changed(source, tile: ids[index], message: "has \(bytes.count) bytes, not \(place.length)")
                            }
                            if let target = window.baseAddress, let from = bytes.baseAddress {
                                (target + place.at).copyMemory(from: from, byteCount: place.length)
                            }
                        }
                        return try reread.run(TileWindowReread.columns(of: ids))
                    }
                }
            }
            if found < ids.count, let missing = zip(ids, copied).first(where: { !$0.1 })?.0 {
                throw Self.changed(source, tile: missing, message: "is gone")
            }
            try output.append(UnsafeRawBufferPointer(rebasing: window[0..<filled]))
            ids.removeAll(keepingCapacity: true)
            places.removeAll(keepingCapacity: true)
            copied.removeAll(keepingCapacity: true)
            filled = 0
        }
        try forEachCopy(layout) { copy in
            let length = Int(copy.length)
            let tile = try TileID.zxy(of: copy.blobOffset)
            if length > windowBytes {
                try flushWindow()
                if isCancelled() { throw CancellationError() }
                try copyLargeBlob(of: tile, id: copy.blobOffset, length: length, from: source, to: output)
                return
            }
            if filled + length > windowBytes {
                try flushWindow()
                if isCancelled() { throw CancellationError() }
            }
            ids.append(copy.blobOffset)
            places.append((filled, length))
            copied.append(false)
            filled += length
        }
        if isCancelled() { throw CancellationError() }
        try flushWindow()
    }

    /// A blob larger than a window, read again alone and appended as it comes.
    private static func copyLargeBlob(of tile: (z: Int, x: Int, y: Int), id: UInt64, length: Int, from source: any TileColumnRereading,
                                      to output: SequentialFileOutput) throws {
        var done = false
        try source.rereadColumn(z: tile.z, x: tile.x, rows: tile.y...tile.y, wanted: { _ in !done }) { _, bytes in
            guard bytes.count == length else {
                throw Self.changed(source, tile: id, message: "has \(bytes.count) bytes, not \(length)")
            }
            try output.append(bytes)
            done = true
        }
        if !done { throw Self.changed(source, tile: id, message: "is gone") }
    }

    /// The error for a tile that the source no longer holds as it streamed it.
    static func changed(_ source: any TileColumnRereading, tile id: UInt64, message: String) -> TileStoreError {
        let tile = (try? TileID.zxy(of: id)).map { "tile \($0.z)/\($0.x)/\($0.y)" } ?? "tile ID \(id)"
        return TileStoreError(.io, store: source.location.address, item: tile, message: "\(message): it changed while it was converted")
    }

    /// Calls `body` with each blob to copy, in data order (the layout's list, read in batches).
    private static func forEachCopy(_ layout: PMTilesLayout, _ body: (PMTilesLayout.Copy) throws -> Void) throws {
        let stride = MemoryLayout<PMTilesLayout.Copy>.stride
        let batch = 1 << 14
        var position: UInt64 = 0
        let total = layout.copies.count / UInt64(stride)
        var copies = [PMTilesLayout.Copy](repeating: .init(blobOffset: 0, length: 0), count: batch)
        while position < total {
            let count = Int(min(UInt64(batch), total - position))
            var failure: POSIXFileError?
            copies.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                do throws(POSIXFileError) { try layout.copies.read(at: position * UInt64(stride), count: count * stride, into: base) } catch { failure = error }
            }
            if let failure { throw failure }
            position += UInt64(count)
            for copy in copies[0..<count] { try body(copy) }
        }
    }
}
