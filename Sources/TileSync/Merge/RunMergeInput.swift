import Foundation

/// One run of `MergeRuns` as a merge input: its tiles read front to back through a 64 KiB
/// buffer, each with the origin the group merge gave it.
final class RunMergeInput: MergeInput {
    private static let bufferSize = 64 << 10
    private let file: ScratchFile
    private let end: UInt64
    let skipped: SkippedItems
    private var offset: UInt64
    private var buffer: [UInt8] = []
    private var bufferOffset: UInt64 = 0
    private var current: (entry: TileIndexEntry, origin: MergeOrigin, data: Data)?
    private var needsRead = true

    init(file: ScratchFile, run: MergeRuns.Run) {
        self.file = file
        offset = run.start
        end = run.end
        skipped = run.skipped
    }

    func head() throws -> TileIndexEntry? {
        if needsRead {
            current = nil
            current = try readRecord()
            needsRead = false
        }
        return current?.entry
    }

    func headOrigin() -> MergeOrigin? {
        current?.origin
    }

    func headData() throws -> Data {
        guard let current else { throw POSIXFileError(operation: "read a merged tile past the end of its run", path: file.path, code: EIO) }
        return current.data
    }

    func take() {
        needsRead = true
    }

    private func readRecord() throws -> (entry: TileIndexEntry, origin: MergeOrigin, data: Data)? {
        guard offset < end else { return nil }
        let header = try bytes(MergeRuns.headerSize)
        func field(_ position: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(header[header.startIndex + 2 + position * 4 + $1]) << ($1 * 8) }
        }
        func index(_ value: UInt32) -> Int { value == UInt32.max ? -1 : Int(value) }
        guard let holding = MergeOrigin.Holding(rawValue: header[header.startIndex + 1]) else {
            throw POSIXFileError(operation: "read a merged tile (an unknown record)", path: file.path, code: EIO)
        }
        let coordinate = try TileCoordinate(z: Int(header[header.startIndex]), x: Int(field(0)), y: Int(field(1)))
        let origin = MergeOrigin(source: index(field(2)), holding: holding, lastSource: index(field(3)),
                                 conflictingSource: index(field(4)), listedSize: field(5) == UInt32.max ? nil : Int(field(5)))
        let data = Data(try bytes(Int(field(6))))
        return (TileIndexEntry(coordinate: coordinate, size: data.count, hash: nil), origin, data)
    }

    /// The next `count` bytes of the run, from the buffer (refilled from the file when they are
    /// not all in it).
    private func bytes(_ count: Int) throws(POSIXFileError) -> ArraySlice<UInt8> {
        guard offset + UInt64(count) <= end else {
            throw POSIXFileError(operation: "read a merged tile (the run ends early)", path: file.path, code: EIO)
        }
        if offset < bufferOffset || offset + UInt64(count) > bufferOffset + UInt64(buffer.count) {
            let size = max(count, Int(min(UInt64(Self.bufferSize), end - offset)))
            var failure: POSIXFileError?
            let at = offset
            buffer = [UInt8](unsafeUninitializedCapacity: size) { storage, initialized in
                guard let base = storage.baseAddress else { return }
                do throws(POSIXFileError) {
                    try file.read(at: at, count: size, into: base)
                    initialized = size
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            if let failure { throw failure }
            bufferOffset = offset
        }
        let from = Int(offset - bufferOffset)
        offset += UInt64(count)
        return buffer[from..<(from + count)]
    }
}
