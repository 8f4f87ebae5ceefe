import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TileSync

/// python's `http.server` on `127.0.0.1:0` over a temporary folder: it ignores `Range` and
/// answers every request for a file with all of it (200), as some servers do.
final class RangeIgnoringServer {
    let root: TemporaryDirectory
    let port: Int
    private let process: Process

    init(serving root: TemporaryDirectory) throws {
        self.root = root
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        var text = ""
        var found: Int?
        while found == nil, case let chunk = handle.availableData, !chunk.isEmpty {
            text += String(decoding: chunk, as: UTF8.self)
            if let start = text.range(of: " port "), let end = text[start.upperBound...].firstIndex(of: " ") {
                found = Int(text[start.upperBound..<end])
            }
        }
        guard let found else {
            process.terminate()
            process.waitUntilExit()
            throw HTTPError(message: "python3 -m http.server did not start: \(text.suffix(300))")
        }
        port = found
        Thread.detachNewThread { while let data = try? handle.read(upToCount: 65536), !data.isEmpty {} }
    }

    deinit {
        // SIGKILL: a SIGTERM the test process ignores stays ignored in the server it started.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }
}

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
        let server = try RangeIgnoringServer(serving: directory)
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
        let server = try RangeIgnoringServer(serving: directory)
        let location = try TileStoreLocation(parsing: server.url("big.pmtiles"))
        let error = #expect(throws: TileStoreError.self) { try location.openReader() }
        #expect(error?.item == "bytes 0-16383")
        #expect(error?.message == "the server sent more than 65536 bytes, the most this request takes")
        #expect(error?.hint == "serve the archive from a server that answers HTTP Range requests")
    }
}
