import Foundation
import Synchronization

/// A PMTiles archive read over HTTP range requests (`s3://`, `http://`, `https://`): the first
/// 16 KiB (header and, as writers lay it out, the root directory) in one request, the rest as
/// asked, several ranges in parallel. Every answer is checked: the range asked for, every
/// byte of it, and the same object version (`ETag`, sent back as `If-Match` when strong), so an
/// archive replaced while it is read is an error, never a mix of two versions. Thread-safe.
final class PMTilesRemoteFile: PMTilesByteSource {
    /// Bytes read by the first request.
    static let headLength = 16_384

    let fetcher: any ByteRangeFetching
    /// The address as typed, for messages.
    let store: String
    let size: UInt64
    /// The object's version when opened.
    let etag: String?
    private let head: Data

    /// Reads the first 16 KiB.
    /// - Throws: `TileStoreError` `.notFound` (no such object or bucket), `.io` (the request
    ///   failed, the server does not answer ranges, the answer is not the range asked for).
    init(fetcher: any ByteRangeFetching, store: String) throws(TileStoreError) {
        self.fetcher = fetcher
        self.store = store
        let first = 0..<UInt64(Self.headLength)
        let answer: ByteRangeAnswer
        do {
            answer = try Self.wait(fetcher, first, ifMatch: nil).get()
        } catch {
            throw Self.storeError(error, store: store, range: first)
        }
        switch answer.status {
        case 404:
            throw TileStoreError(.notFound, store: store, message: "no such object at \(fetcher.objectName)")
        case 416:
            guard answer.totalSize ?? 0 == 0 else {
                throw TileStoreError(.io, store: store, item: Self.item(first), message: "the server refused the range of a \(answer.totalSize ?? 0)-byte object")
            }
            size = 0
            head = Data()
        case _ where answer.isWholeObject:
            guard answer.body.count <= Self.headLength else {
                throw TileStoreError(.io, store: store, item: Self.item(first), message: "the server does not answer range requests (it sent all \(answer.body.count) bytes)",
                                     hint: "serve the archive from a server that answers HTTP Range requests")
            }
            size = UInt64(answer.body.count)
            head = answer.body
        default:
            guard let total = answer.totalSize else {
                throw TileStoreError(.io, store: store, item: Self.item(first), message: "the server's range answer has no object size (Content-Range \(answer.contentRange ?? "missing"))")
            }
            size = total
            head = answer.body
            guard answer.firstByte == 0, UInt64(head.count) == min(total, first.upperBound) else {
                throw TileStoreError(.io, store: store, item: Self.item(first), message: "the server sent \(head.count) bytes (Content-Range \(answer.contentRange ?? "missing")) for the first \(min(total, first.upperBound))")
            }
        }
        etag = answer.etag
    }

    var isRemote: Bool { true }

    func data(at offset: UInt64, count: Int) throws -> Data {
        try read([offset..<(offset + UInt64(count))]).wait()[0]
    }

    func read(_ ranges: [Range<UInt64>]) -> PMTilesPendingRead {
        let pending = PMTilesPendingRead(count: ranges.count, store: store)
        let strongTag = etag.flatMap { $0.hasPrefix("W/") ? nil : $0 }
        for (index, range) in ranges.enumerated() {
            if range.upperBound <= UInt64(head.count) {
                pending.finish(index, .success(head.subdata(in: Int(range.lowerBound)..<Int(range.upperBound))))
                continue
            }
            guard range.upperBound <= size else {
                pending.finish(index, .failure(TileStoreError(.io, store: store, item: Self.item(range), message: "lies past the end of the \(size)-byte archive")))
                continue
            }
            fetcher.fetch(range, ifMatch: strongTag) { [self] result in
                pending.finish(index, checked(result, range: range))
            }
        }
        return pending
    }

    private func checked(_ result: Result<ByteRangeAnswer, HTTPError>, range: Range<UInt64>) -> Result<Data, TileStoreError> {
        let answer: ByteRangeAnswer
        switch result {
        case .success(let value): answer = value
        case .failure(let error): return .failure(Self.storeError(error, store: store, range: range))
        }
        let item = Self.item(range)
        if answer.status == 412 || (etag != nil && answer.etag != nil && answer.etag != etag) {
            return .failure(TileStoreError(.io, store: store, item: item, message: "the archive changed while it was read (ETag \(etag ?? "") became \(answer.etag ?? "something else"))",
                                           hint: "run again to read the new version"))
        }
        if answer.status == 404 {
            return .failure(TileStoreError(.notFound, store: store, item: item, message: "the object was deleted while it was read"))
        }
        let count = Int(range.upperBound - range.lowerBound)
        if answer.isWholeObject, UInt64(answer.body.count) == size {
            return .success(answer.body.subdata(in: Int(range.lowerBound)..<Int(range.upperBound)))
        }
        guard (200..<300).contains(answer.status), answer.firstByte == range.lowerBound, answer.body.count == count else {
            return .failure(TileStoreError(.io, store: store, item: item, message: "the server sent \(answer.body.count) bytes (HTTP \(answer.status), Content-Range \(answer.contentRange ?? "missing")) for \(count)"))
        }
        return .success(answer.body)
    }

    /// `bytes A-B` (inclusive, as HTTP counts them).
    static func item(_ range: Range<UInt64>) -> String { "bytes \(range.lowerBound)-\(range.upperBound - 1)" }

    private static func storeError(_ error: HTTPError, store: String, range: Range<UInt64>) -> TileStoreError {
        TileStoreError(.io, store: store, item: item(range), message: error.description, hint: error.hint)
    }

    private static func wait(_ fetcher: any ByteRangeFetching, _ range: Range<UInt64>, ifMatch: String?) -> Result<ByteRangeAnswer, HTTPError> {
        let answer = Mutex<Result<ByteRangeAnswer, HTTPError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        fetcher.fetch(range, ifMatch: ifMatch) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return answer.withLock { $0 } ?? .failure(HTTPError(message: "no answer"))
    }
}
