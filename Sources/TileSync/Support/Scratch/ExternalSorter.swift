import Foundation

/// Sorts fixed-size records in bounded memory: up to `memoryBudget` bytes are sorted in memory,
/// larger inputs are written as sorted runs to a scratch file and merged (in several passes
/// when there are more than `maxFanIn` runs, so read buffers stay bounded too).
final class ExternalSorter<Record: BitwiseCopyable> {
    static var maxFanIn: Int { 64 }
    private static var readBufferBytes: Int { 64 << 10 }

    private let folder: String
    private let purpose: String
    private let capacity: Int
    private let areInIncreasingOrder: (Record, Record) -> Bool
    private let sortInMemory: (inout [Record]) -> Void
    private var buffer: [Record] = []
    private var file: ScratchFile?
    private var runs: [(start: UInt64, count: Int)] = []
    /// Records appended.
    private(set) var count = 0

    /// - Parameters:
    ///   - folder: where the scratch file goes, when one is needed.
    ///   - memoryBudget: bytes of records held in memory at most.
    ///   - sortInMemory: sorts a run in the same order (a faster way than the closure), if any.
    init(folder: String, purpose: String, memoryBudget: Int, by areInIncreasingOrder: @escaping (Record, Record) -> Bool,
         sortInMemory: ((inout [Record]) -> Void)? = nil) {
        self.folder = folder
        self.purpose = purpose
        capacity = max(1024, memoryBudget / max(1, MemoryLayout<Record>.stride))
        self.areInIncreasingOrder = areInIncreasingOrder
        self.sortInMemory = sortInMemory ?? { $0.sort(by: areInIncreasingOrder) }
    }

    /// Adds a record.
    /// - Throws: `POSIXFileError` when a run cannot be written.
    func append(_ record: Record) throws(POSIXFileError) {
        if buffer.count == capacity { try spill() }
        if buffer.isEmpty { buffer.reserveCapacity(capacity) }
        buffer.append(record)
        count += 1
    }

    /// The records in order; the sorter is empty afterwards.
    /// - Throws: `POSIXFileError` when runs cannot be written or merged.
    func sorted() throws(POSIXFileError) -> SortedRecords<Record> {
        guard !runs.isEmpty, let file else {
            sortInMemory(&buffer)
            defer { buffer = [] }
            return SortedRecords(memory: buffer)
        }
        try spill()
        buffer = []
        var runs = self.runs
        var source = file
        while runs.count > Self.maxFanIn {
            let target = try ScratchFile(in: folder, purpose: purpose)
            var merged: [(start: UInt64, count: Int)] = []
            for group in stride(from: 0, to: runs.count, by: Self.maxFanIn) {
                let slice = Array(runs[group..<min(group + Self.maxFanIn, runs.count)])
                let start = target.count
                let merge = try SortedRecords(file: source, runs: slice, by: areInIncreasingOrder, bufferBytes: Self.readBufferBytes)
                var written = 0
                while let record = try merge.next() {
                    var failure: POSIXFileError?
                    // One-element array: the bytes with the record's padding, as runs are read.
                    [record].withUnsafeBytes { raw in
                        do throws(POSIXFileError) { try target.append(raw) } catch { failure = error }
                    }
                    if let failure { throw failure }
                    written += 1
                }
                merged.append((start, written))
            }
            try target.flush()
            runs = merged
            source = target
        }
        self.runs = []
        self.file = nil
        return try SortedRecords(file: source, runs: runs, by: areInIncreasingOrder, bufferBytes: Self.readBufferBytes)
    }

    private func spill() throws(POSIXFileError) {
        guard !buffer.isEmpty else { return }
        sortInMemory(&buffer)
        let file: ScratchFile
        if let existing = self.file {
            file = existing
        } else {
            file = try ScratchFile(in: folder, purpose: purpose)
            self.file = file
        }
        let start = file.count
        var failure: POSIXFileError?
        buffer.withUnsafeBytes { raw in
            do throws(POSIXFileError) { try file.append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        try file.flush()
        runs.append((start, buffer.count))
        buffer.removeAll(keepingCapacity: true)
    }
}

extension ExternalSorter where Record: Comparable {
    /// Sorts in ascending order; runs in memory are sorted without a comparison closure.
    convenience init(ascendingIn folder: String, purpose: String, memoryBudget: Int) {
        self.init(folder: folder, purpose: purpose, memoryBudget: memoryBudget, by: <, sortInMemory: { $0.sort() })
    }
}

/// The output of an `ExternalSorter`: records from memory, or a merge of sorted runs in a
/// scratch file (a binary heap over the runs, each read through a small buffer).
final class SortedRecords<Record: BitwiseCopyable> {
    private final class Run {
        let start: UInt64
        let count: Int
        var nextIndex = 0
        var buffer: [Record] = []
        var position = 0
        init(start: UInt64, count: Int) {
            self.start = start
            self.count = count
        }
    }

    private var memory: [Record] = []
    private var memoryIndex = 0
    private let file: ScratchFile?
    private var runs: [Run] = []
    private var heap: [(record: Record, run: Int)] = []
    private let areInIncreasingOrder: ((Record, Record) -> Bool)?
    private let recordsPerRead: Int

    init(memory: [Record]) {
        self.memory = memory
        file = nil
        areInIncreasingOrder = nil
        recordsPerRead = 0
    }

    init(file: ScratchFile, runs: [(start: UInt64, count: Int)], by areInIncreasingOrder: @escaping (Record, Record) -> Bool,
         bufferBytes: Int) throws(POSIXFileError) {
        self.file = file
        self.areInIncreasingOrder = areInIncreasingOrder
        recordsPerRead = max(16, bufferBytes / max(1, MemoryLayout<Record>.stride))
        self.runs = runs.map { Run(start: $0.start, count: $0.count) }
        for index in self.runs.indices {
            if let record = try take(from: index) { push((record, index)) }
        }
    }

    /// The next record, nil after the last.
    /// - Throws: `POSIXFileError` when a run cannot be read.
    func next() throws(POSIXFileError) -> Record? {
        guard file != nil else {
            guard memoryIndex < memory.count else { return nil }
            defer { memoryIndex += 1 }
            return memory[memoryIndex]
        }
        guard let top = heap.first else { return nil }
        if let record = try take(from: top.run) {
            heap[0] = (record, top.run)
            siftDown(0)
        } else {
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(0)
            }
        }
        return top.record
    }

    private func take(from index: Int) throws(POSIXFileError) -> Record? {
        let run = runs[index]
        if run.position == run.buffer.count {
            guard run.nextIndex < run.count, let file else { return nil }
            let batch = min(recordsPerRead, run.count - run.nextIndex)
            let stride = MemoryLayout<Record>.stride
            var failure: POSIXFileError?
            run.buffer = [Record](unsafeUninitializedCapacity: batch) { storage, initialized in
                guard let base = storage.baseAddress else { return }
                do throws(POSIXFileError) {
                    try file.read(at: run.start + UInt64(run.nextIndex * stride), count: batch * stride, into: base)
                    initialized = batch
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            if let failure { throw failure }
            run.nextIndex += batch
            run.position = 0
        }
        defer { run.position += 1 }
        return run.buffer[run.position]
    }

    private func push(_ item: (record: Record, run: Int)) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count && less(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard less(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }

    /// Ties go to the earlier run, so equal records keep their input order across runs.
    private func less(_ a: (record: Record, run: Int), _ b: (record: Record, run: Int)) -> Bool {
        guard let areInIncreasingOrder else { return false }
        if areInIncreasingOrder(a.record, b.record) { return true }
        if areInIncreasingOrder(b.record, a.record) { return false }
        return a.run < b.run
    }
}
