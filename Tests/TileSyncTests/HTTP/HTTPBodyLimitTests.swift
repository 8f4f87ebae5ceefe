import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TileSync

@Suite("Answers longer than a request takes are cut off where they pass it, never held whole")
struct HTTPBodyLimitTests {
    /// The outcome of one GET of `url` through a transport taking at most `limit` bytes.
    static func get(_ url: String, limit: Int) throws -> Result<Int, HTTPError> {
        let transport = HTTPTransport(policy: HTTPRetryPolicy(attempts: 3, initialBackoff: 0.01, maximumBackoff: 0.01, timeout: 10), connections: 1)
        let outcome = LockedValue<Result<Int, HTTPError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let request = URLRequest(url: try #require(URL(string: url)))
        transport.start(makeRequest: { request }, maxBodyBytes: limit,
                        judge: { _, body in .answer(body.count) },
                        transportFailure: { message, _ in HTTPError(message: message) },
                        completion: { result in
                            outcome.withLock { $0 = result }
                            done.signal()
                        })
        withExtendedLifetime(transport) { done.wait() }
        return try #require(outcome.withLock { $0 })
    }

    @Test("A body of exactly the limit is taken; one byte more fails at once (not retried) saying the limit")
    func limitIsExact() throws {
        let directory = try TemporaryDirectory()
        try Data(repeating: 7, count: 5000).write(to: URL(fileURLWithPath: directory.file("five.bin")))
        let server = try HTTPTestServer(serving: directory, ignoringRanges: true)
        #expect(try Self.get(server.url("five.bin"), limit: 5000).get() == 5000)
        guard case .failure(let error) = try Self.get(server.url("five.bin"), limit: 4999) else {
            Issue.record("a body of 5000 bytes passed a limit of 4999")
            return
        }
        #expect(error.message == "the server sent more than 4999 bytes, the most this request takes")
    }

    @Test("A remote PMTiles on a server that ignores Range: the first request stops at 64 KiB of the 48 MB sent, and the error says what to do")
    func archiveOnRangeIgnoringServer() throws {
        let directory = try TemporaryDirectory()
        var archive = Data("PMTiles".utf8) + Data([3])
        archive.append(Data(count: 48 << 20))
        try archive.write(to: URL(fileURLWithPath: directory.file("big.pmtiles")))
        let server = try HTTPTestServer(serving: directory, ignoringRanges: true)
        let location = try TileStoreLocation(parsing: server.url("big.pmtiles"))
        let error = #expect(throws: TileStoreError.self) { try location.openReader() }
        #expect(error?.item == "bytes 0-16383")
        #expect(error?.message == "the server sent more than 65536 bytes, the most this request takes")
        #expect(error?.hint == "serve the archive from a server that answers HTTP Range requests")
    }
}
