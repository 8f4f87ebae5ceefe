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

    /// Sends `GET path` on the connection (kept alive) and reads the whole answer: its status
    /// line, or "" when the connection ended first or nothing came within 5 s.
    static func get(_ path: String, on descriptor: Int32) -> String {
        send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", on: descriptor)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let headEnd = text.range(of: "\r\n\r\n") {
                let head = text[..<headEnd.lowerBound]
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count - text.utf8.distance(from: text.utf8.startIndex, to: headEnd.upperBound) >= length {
                    return String(head.split(separator: "\r\n").first ?? "")
                }
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 5000) == 1 else { return "" }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return "" }
            received += buffer[0..<count]
        }
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

    @Test("--timeout 1: a request whose head or body trickles in a byte every 0.3 s is closed after about a second (libmicrohttpd's own timeout restarts with each byte)")
    func tricklingRequestClosed() throws {
        let server = try ServeProcess([ServeEndToEndTests.world, "--timeout", "1"], in: directory)
        /// Sends `head` at once, then `trickle` a byte every 0.3 s: seconds until the server closed the connection.
        func closedAfter(head: String, trickle: String) -> Double? {
            let slow = RawClient.connect(port: server.port)
            defer { close(slow) }
            let started = Date()
            if !head.isEmpty { RawClient.send(head, on: slow) }
            for byte in trickle {
                RawClient.send(String(byte), on: slow)
                if RawClient.isClosed(slow, within: 0.3) { return Date().timeIntervalSince(started) }
            }
            return nil
        }
        let headTrickled = closedAfter(head: "", trickle: "GET /world/0/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + String(repeating: "a", count: 40))
        #expect(headTrickled.map { $0 >= 0.9 && $0 < 3 } == true, "a trickling head was closed after \(headTrickled.map { "\($0) s" } ?? "never")")
        let bodyTrickled = closedAfter(head: "GET /world/0/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n",
                                       trickle: String(repeating: "b", count: 60))
        #expect(bodyTrickled.map { $0 >= 0.9 && $0 < 3 } == true, "a trickling body was closed after \(bodyTrickled.map { "\($0) s" } ?? "never")")
        #expect(try CurlResponse.get(server.base + "/world/0/0/0.png").status == 200)
        #expect(server.stop().status == 0)
    }

    @Test("--max-connections-per-client 8: a ninth connection takes the place of the one idle longest, a request in progress keeps its own")
    func connectionsPerClient() throws {
        let server = try ServeProcess([ServeEndToEndTests.world, "--max-connections-per-client", "8", "--threads", "1"], in: directory)
        let held = (0..<8).map { _ in RawClient.connect(port: server.port) }
        defer { held.forEach { close($0) } }
        #expect(held.allSatisfy { $0 >= 0 })
        #expect(held.allSatisfy { !RawClient.isClosed($0, within: 0.05) })
        #expect(RawClient.get("/world/0/0/0.png", on: held[1]) == "HTTP/1.1 200 OK")
        let ninth = RawClient.connect(port: server.port)
        defer { close(ninth) }
        #expect(RawClient.get("/world/1/0/0.png", on: ninth) == "HTTP/1.1 200 OK")
        #expect(RawClient.isClosed(held[0], within: 2), "the connection idle longest gave way")
        let tenth = RawClient.connect(port: server.port)
        defer { close(tenth) }
        #expect(RawClient.get("/world/1/1/0.png", on: tenth) == "HTTP/1.1 200 OK")
        #expect(RawClient.isClosed(held[2], within: 2), "next the one idle since it opened, not the one that asked for a tile")
        #expect(!RawClient.isClosed(held[1], within: 0.05))
        #expect(held[3...].allSatisfy { !RawClient.isClosed($0, within: 0.01) })
        #expect(RawClient.get("/world/0/0/0.png", on: held[1]) == "HTTP/1.1 200 OK", "a kept-alive connection still answers")
        #expect(try CurlResponse.get(server.base + "/world/0/0/0.png").status == 200)
        #expect(server.stop().status == 0)
    }

    /// Opens `count` idle connections to `port` in a python process of its own (thousands of
    /// descriptors in the test process would be shared with every test starting a process
    /// meanwhile: Foundation's `Process.run` has crashed copying them), waits 0.3 s, then says
    /// `open K first I`: how many of them the server has not closed and the index of the first
    /// of those (-1 for none); again for each line on its standard input, until it ends.
    static let idleHolder = """
        import resource, select, socket, sys, time
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        port, count = int(sys.argv[1]), int(sys.argv[2])
        source = (sys.argv[3], 0) if len(sys.argv) > 3 else None
        held = [socket.create_connection(("127.0.0.1", port), source_address=source) for _ in range(count)]
        def report():
            time.sleep(0.3)
            poller = select.poll()
            for connection in held:
                poller.register(connection, select.POLLIN)
            closed = {fd for fd, _ in poller.poll(0)}
            open_ = [i for i, connection in enumerate(held) if connection.fileno() not in closed]
            print("open", len(open_), "first", open_[0] if open_ else -1, flush=True)
        report()
        for _ in sys.stdin:
            report()
        """

    /// The idle holder of `count` connections to `server`, its first report read.
    private final class IdleHolder {
        let process = Process()
        private let input = Pipe(), output = Pipe()
        private(set) var first = ""

        /// - Parameter source: the local address its connections come from (127.0.0.1 by default).
        init(port: Int, count: Int, source: String? = nil) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", ServeProtectionEndToEndTests.idleHolder, String(port), String(count)] + (source.map { [$0] } ?? [])
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            first = readLine()
        }

        /// Asks again how many of its connections are open.
        func report() -> String {
            input.fileHandleForWriting.write(Data("again\n".utf8))
            return readLine()
        }

        private func readLine() -> String {
            var said = ""
            while !said.hasSuffix("\n"), case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
                said += String(decoding: chunk, as: UTF8.self)
            }
            return said
        }

        deinit {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    @Test("with 2,000 idle connections open, a tile and TileJSON are still answered at once")
    func manyIdleConnections() throws {
        let server = try ServeProcess([ServeEndToEndTests.world, "--max-connections-per-client", "4000"], in: directory)
        let holder = try IdleHolder(port: server.port, count: 2000)
        #expect(holder.first == "open 2000 first 0\n", "the holder said \(holder.first.debugDescription)")
        let started = Date()
        let tile = try CurlResponse.get(server.base + "/world/1/0/0.png")
        let json = try CurlResponse.get(server.base + "/world.json")
        let seconds = Date().timeIntervalSince(started)
        #expect(tile.status == 200 && json.status == 200)
        #expect(seconds < 1, "two requests took \(seconds) s")
        #expect(holder.report() == "open 2000 first 0\n")
        #expect(server.stop().status == 0)
    }

    @Test("the server at its total (200 descriptors: 136 connections): another address's idle connections give way to a new client, with four threads",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "prlimit not found"))
    func serverTotal() throws {
        let server = try ServeProcess([ServeEndToEndTests.world, "--threads", "4", "--max-connections-per-client", "1000"], in: directory,
                                      launcher: ["/usr/bin/prlimit", "--nofile=200:200", "--"])
        let holder = try IdleHolder(port: server.port, count: 300, source: "127.0.0.2")
        let held = holder.first.split(separator: " ")
        let open = held.count == 4 ? Int(held[1]) : nil
        #expect(open.map { (136...140).contains($0) } == true, "the holder said \(holder.first.debugDescription)")
        #expect(held.count == 4 && held[3] != "0\n", "the oldest gave way: \(holder.first.debugDescription)")
        let started = Date()
        let tile = try CurlResponse.get(server.base + "/world/1/0/0.png")
        #expect(tile.status == 200)
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(server.stop().status == 0)
    }

    @Test("default limits: one address opening 2,000 idle connections keeps its newest 256, and its next request is answered at once")
    func manyIdleConnectionsFromOneClient() throws {
        let server = try ServeProcess([ServeEndToEndTests.world, "--threads", "1"], in: directory)
        let holder = try IdleHolder(port: server.port, count: 2000)
        #expect(holder.first == "open 256 first 1744\n", "the holder said \(holder.first.debugDescription)")
        let started = Date()
        let tile = try CurlResponse.get(server.base + "/world/1/0/0.png")
        let seconds = Date().timeIntervalSince(started)
        #expect(tile.status == 200)
        #expect(seconds < 1, "the request took \(seconds) s")
        #expect(holder.report() == "open 255 first 1745\n", "the tile's connection took the place of the one idle longest")
        #expect(server.stop().status == 0)
    }
}
