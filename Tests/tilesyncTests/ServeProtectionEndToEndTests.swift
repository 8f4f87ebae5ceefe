import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Raw TCP clients of a test server on 127.0.0.1: connections that send nothing or half a
/// request, and the check whether the server closed one.
enum RawClient {
    /// A connected socket, or -1.
    static func connect(port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    static func send(_ text: String, on descriptor: Int32) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    /// True when the server closed the connection (end of stream or reset) within `seconds`.
    static func isClosed(_ descriptor: Int32, within seconds: Double) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) <= 0
    }
}

@Suite("tilesync serve protects itself: timeouts, connections per client, thousands of idle connections",
       .enabled(if: CurlResponse.available, "curl not found: serve tests SKIPPED"))
final class ServeProtectionEndToEndTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-serve-protection-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test("--timeout 1: an idle connection, half a request line and bytes that are no HTTP are closed; the server keeps answering")
    func silentConnectionsClosed() throws {
        let server = try ServeProcess([ServeEndToEndTests.world, "--timeout", "1"], in: directory)
        let idle = RawClient.connect(port: server.port), half = RawClient.connect(port: server.port), binary = RawClient.connect(port: server.port)
        defer { [idle, half, binary].forEach { close($0) } }
        RawClient.send("GET /world/0/0/0.png HTT", on: half)
        RawClient.send("\u{16}\u{03}\u{01}\u{00}", on: binary)
        #expect(!RawClient.isClosed(idle, within: 0.3), "open before the timeout")
        #expect(RawClient.isClosed(idle, within: 4))
        #expect(RawClient.isClosed(half, within: 4))
        #expect(RawClient.isClosed(binary, within: 4))
        #expect(try CurlResponse.get(server.base + "/world/0/0/0.png").status == 200)
        #expect(server.stop().status == 0)
    }

    @Test("--max-connections-per-client 8: the ninth connection is refused at once; after one closes, requests are answered")
    func connectionsPerClient() throws {
        let server = try ServeProcess([ServeEndToEndTests.world, "--max-connections-per-client", "8"], in: directory)
        let held = (0..<8).map { _ in RawClient.connect(port: server.port) }
        #expect(held.allSatisfy { $0 >= 0 })
        #expect(held.allSatisfy { !RawClient.isClosed($0, within: 0.05) })
        let ninth = RawClient.connect(port: server.port)
        #expect(ninth < 0 || RawClient.isClosed(ninth, within: 2), "the ninth is closed")
        if ninth >= 0 { close(ninth) }
        close(held[0])
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try CurlResponse.get(server.base + "/world/0/0/0.png").status == 200)
        held.dropFirst().forEach { close($0) }
        #expect(server.stop().status == 0)
    }

    /// Opens `count` idle connections to `port` in a python process of its own (thousands of
    /// descriptors in the test process would be shared with every test starting a process
    /// meanwhile: Foundation's `Process.run` has crashed copying them), waits 0.3 s, then says
    /// `ready N open` (or `closed`, when the server closed the last one), and holds them until its
    /// standard input ends.
    static let idleHolder = """
        import resource, select, socket, sys, time
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        port, count = int(sys.argv[1]), int(sys.argv[2])
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
        time.sleep(0.3)
        poller = select.poll()
        poller.register(held[-1], select.POLLIN)
        print("ready", len(held), "closed" if poller.poll(50) else "open", flush=True)
        sys.stdin.read()
        """

    @Test("with 2,000 idle connections open, a tile and TileJSON are still answered at once")
    func manyIdleConnections() throws {
        let server = try ServeProcess([ServeEndToEndTests.world, "--max-connections-per-client", "4000"], in: directory)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", Self.idleHolder, String(server.port), "2000"]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        var said = ""
        while !said.hasSuffix("\n"), case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
            said += String(decoding: chunk, as: UTF8.self)
        }
        #expect(said == "ready 2000 open\n", "the holder said \(said.debugDescription)")
        let started = Date()
        let tile = try CurlResponse.get(server.base + "/world/1/0/0.png")
        let json = try CurlResponse.get(server.base + "/world.json")
        let seconds = Date().timeIntervalSince(started)
        #expect(tile.status == 200 && json.status == 200)
        #expect(seconds < 1, "two requests took \(seconds) s")
        #expect(server.stop().status == 0)
    }
}
