import Foundation

/// The directory entries of an archive being written, in tile-ID order, in a scratch file
/// (bounded memory however many entries): appended one by one, read back in ranges to build
/// the directories. An entry's size is its stride (24 bytes), so they lie back to back.
final class PMTilesEntryFile {
    private let file: ScratchFile
    /// Entries appended.
    private(set) var count = 0

    /// - Throws: `POSIXFileError` when the scratch file cannot be created in `folder`.
    init(folder: String) throws(POSIXFileError) {
        file = try ScratchFile(in: folder, purpose: "pmtiles-entries")
    }

    /// Appends one entry.
    /// - Throws: `POSIXFileError` (disk full, I/O error).
    func append(_ entry: PMTilesEntry) throws(POSIXFileError) {
        var failure: POSIXFileError?
        withUnsafeBytes(of: entry) { raw in
            do throws(POSIXFileError) { try file.append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        count += 1
    }

    /// Writes what is buffered, so that `read` sees every entry.
    /// - Throws: `POSIXFileError`.
    func flush() throws(POSIXFileError) {
        try file.flush()
    }

    /// Reads `count` entries from index `start` (after `flush()`).
    /// - Throws: `POSIXFileError`.
    func read(from start: Int, count: Int) throws(POSIXFileError) -> [PMTilesEntry] {
        let stride = MemoryLayout<PMTilesEntry>.stride
        var failure: POSIXFileError?
        let result = [PMTilesEntry](unsafeUninitializedCapacity: count) { storage, initialized in
            guard let base = storage.baseAddress, count > 0 else { return }
            do throws(POSIXFileError) {
                try file.read(at: UInt64(start * stride), count: count * stride, into: base)
                initialized = count
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return result
    }
}
