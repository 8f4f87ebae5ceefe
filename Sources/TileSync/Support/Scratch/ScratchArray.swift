import Foundation

/// A growable array of optional `UInt64` values indexed from 0, in bounded memory: pages of
/// 1,024 values in a scratch file (sparse, so unset pages cost nothing), 1,024 of them cached
/// (8 MiB), each index mapped to one cache slot.
final class ScratchArray {
    private static let pageValues = 1024
    private static let cachedPages = 1024

    private let folder: String
    private var file: ScratchFile?
    private var pages: [[UInt64]]
    private var pageNumbers: [Int]
    private var dirty: [Bool]
    /// Values are stored + 1, so a zero (a page never written) reads as unset.
    private var fileSize: UInt64 = 0

    init(folder: String) {
        self.folder = folder
        pages = Array(repeating: [], count: Self.cachedPages)
        pageNumbers = Array(repeating: -1, count: Self.cachedPages)
        dirty = Array(repeating: false, count: Self.cachedPages)
    }

    /// The value at `index`, nil when never set.
    /// - Throws: `POSIXFileError` when a page cannot be read or written.
    func value(at index: Int) throws(POSIXFileError) -> UInt64? {
        let slot = try load(index / Self.pageValues)
        let stored = pages[slot][index % Self.pageValues]
        return stored == 0 ? nil : stored - 1
    }

    /// Sets the value at `index` (below `UInt64.max`).
    /// - Throws: `POSIXFileError` when a page cannot be read or written.
    func set(_ value: UInt64, at index: Int) throws(POSIXFileError) {
        let slot = try load(index / Self.pageValues)
        pages[slot][index % Self.pageValues] = value + 1
        dirty[slot] = true
    }

    private func load(_ page: Int) throws(POSIXFileError) -> Int {
        let slot = page % Self.cachedPages
        if pageNumbers[slot] == page { return slot }
        if pageNumbers[slot] >= 0 && dirty[slot] { try write(slot) }
        let start = UInt64(page * Self.pageValues * 8)
        var values = [UInt64](repeating: 0, count: Self.pageValues)
        if let file, start < fileSize {
            var failure: POSIXFileError?
            values.withUnsafeMutableBytes { raw in
                do throws(POSIXFileError) { try file.read(at: start, count: raw.count, into: raw.baseAddress!) } catch { failure = error }
            }
            if let failure { throw failure }
        }
        pages[slot] = values
        pageNumbers[slot] = page
        dirty[slot] = false
        return slot
    }

    private func write(_ slot: Int) throws(POSIXFileError) {
        let file: ScratchFile
        if let existing = self.file {
            file = existing
        } else {
            file = try ScratchFile(in: folder, purpose: "pmtiles-offsets")
            self.file = file
        }
        let start = UInt64(pageNumbers[slot] * Self.pageValues * 8)
        var failure: POSIXFileError?
        pages[slot].withUnsafeBytes { raw in
            do throws(POSIXFileError) { try file.write(raw, at: start) } catch { failure = error }
        }
        if let failure { throw failure }
        fileSize = max(fileSize, start + UInt64(Self.pageValues * 8))
        dirty[slot] = false
    }
}
