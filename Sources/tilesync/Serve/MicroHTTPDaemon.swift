import CTileSyncMicroHTTPD
import Foundation
import TileSync

/// An HTTP/1.1 server on GNU libmicrohttpd: a listening socket bound here (so a port taken or
/// an address not ours is a clear error, and port 0 picks a free one), a pool of threads each
/// polling with epoll (poll elsewhere), and one handler that turns each request into a
/// response. Request paths reach the handler as sent: libmicrohttpd's decoding is switched off
/// so that an encoded slash stays visible to the router. Protected as nginx is by default and a
/// little more: a connection silent for `Limits.timeout` (an idle keep-alive, a request that
/// stops coming) is closed, one client address holds at most `Limits.connectionsPerClient`
/// (`ServeConnectionLedger`: at a limit the idle connection unused longest gives way), and the
/// process may open as many descriptors as its hard limit allows (thousands of idle connections
/// then cost a descriptor and a buffer each, never a thread).
final class MicroHTTPDaemon {
    /// A listening address could not be used or the server not started.
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// libmicrohttpd's unescape callback: returns the new length of the text decoded in place.
    private typealias UnescapeCallback = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int

    /// Bytes of libmicrohttpd's buffer per connection (request line and headers, response
    /// headers): requests larger than this are refused by libmicrohttpd itself (431 or 414).
    static let connectionMemory = 16 * 1024

    /// What a client may hold of the server.
    struct Limits: Sendable, Equatable {
        /// Seconds a connection may stay idle (between requests, or while a request does not
        /// come whole, however slowly its bytes trickle in) or silent before it is closed (nginx
        /// closes at 60).
        var timeout = 60
        /// Connections one client address may hold open at once; a new one past it takes the
        /// place of the client's idle connection unused longest, and is refused when all have a
        /// request in progress.
        var connectionsPerClient = 256
    }

    /// The port listened on (the one picked when 0 was asked for).
    let port: Int
    private let host: String
    private let threads: Int
    private let limits: Limits
    /// The bound socket until the started server owns it (and closes it when stopped).
    private var listeningSocket: Int32
    private let isIPv6: Bool
    private var daemon: OpaquePointer?
    private var handlerBox: Unmanaged<HandlerBox>?
    /// The connections held, kept alive while the server runs (its callbacks hold it unretained).
    private var ledger: ServeConnectionLedger?
    /// Closes connections idle longer than the timeout (libmicrohttpd's own timeout restarts with
    /// every byte received, so a request sent a byte at a time would never end).
    private var idleSweeper: (any DispatchSourceTimer)?

    final class HandlerBox {
        let handle: (HTTPRequest) -> HTTPResponse
        init(_ handle: @escaping (HTTPRequest) -> HTTPResponse) { self.handle = handle }
    }

    /// Binds `host:port`; `start(handle:)` then answers on it.
    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address, or a name that resolves to one.
    ///   - port: 0 for any free port.
    ///   - threads: the size of the thread pool.
    ///   - limits: the timeout and the connections a client may hold.
    /// - Throws: `StartError` naming the address when it cannot be bound.
    init(host: String, port: Int, threads: Int, limits: Limits = Limits()) throws {
        let (socket, boundPort, isIPv6) = try Self.bindListeningSocket(host: host, port: port)
        self.host = host
        self.port = boundPort
        self.threads = threads
        self.limits = limits
        self.isIPv6 = isIPv6
        listeningSocket = socket
    }

    /// Starts answering with `handle`, called on the server's threads.
    /// - Throws: `StartError` naming the address when the server does not start.
    func start(handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        guard daemon == nil, listeningSocket >= 0 else { return }
        let box = Unmanaged.passRetained(HandlerBox(handle))
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_TURBO.rawValue
        #if os(Linux)
        flags |= MHD_USE_EPOLL.rawValue
        #else
        flags |= MHD_USE_POLL.rawValue
        #endif
        if isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let keepRaw: UnescapeCallback = { _, _, text in text.map { strlen($0) } ?? 0 }
        let connectionLimit = Self.connectionLimit()
        let ledger = ServeConnectionLedger(perClient: limits.connectionsPerClient, total: connectionLimit)
        let ledgerPointer = Unmanaged.passUnretained(ledger).toOpaque()
        let arguments: [any CVarArg] = [
            CInt(MHD_OPTION.LISTEN_SOCKET.rawValue), listeningSocket,
            CInt(MHD_OPTION.THREAD_POOL_SIZE.rawValue), CUnsignedInt(max(1, threads)),
            CInt(MHD_OPTION.CONNECTION_TIMEOUT.rawValue), CUnsignedInt(max(1, limits.timeout)),
            // libmicrohttpd splits this among its threads; each thread's share is the ledger's
            // whole total and a little more, so the ledger, which counts over all threads,
            // decides at the limit, never a thread that took more than its share of accepts.
            CInt(MHD_OPTION.CONNECTION_LIMIT.rawValue), CUnsignedInt(min(Int(UInt32.max), (connectionLimit + 16) * max(1, threads))),
            CInt(MHD_OPTION.NOTIFY_CONNECTION.rawValue), unsafeBitCast(Self.connectionNotice, to: OpaquePointer.self), Int(bitPattern: ledgerPointer),
            CInt(MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue), Int(Self.connectionMemory),
            CInt(MHD_OPTION.UNESCAPE_CALLBACK.rawValue), unsafeBitCast(keepRaw, to: OpaquePointer.self), Int(0),
            CInt(MHD_OPTION.NOTIFY_COMPLETED.rawValue), unsafeBitCast(Self.completedHandler, to: OpaquePointer.self), Int(0),
            CInt(MHD_OPTION.END.rawValue),
        ]
        let started = withVaList(arguments) { list in
            MHD_start_daemon_va(flags, 0, Self.acceptPolicy, ledgerPointer, Self.accessHandler, box.toOpaque(), list)
        }
        guard let started else {
            box.release()
            throw StartError(description: "\(Self.display(host: host, port: port)): the HTTP server did not start")
        }
        daemon = started
        handlerBox = box
        self.ledger = ledger
        let seconds = min(max(1, limits.timeout), 1 << 30)
        let timeoutNanoseconds = seconds * 1_000_000_000
        let sweeper = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let interval = DispatchTimeInterval.milliseconds(min(1000, seconds * 250))
        sweeper.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
        sweeper.setEventHandler { ledger.shutDownIdle(before: ServedConnection.now() - timeoutNanoseconds) }
        sweeper.resume()
        idleSweeper = sweeper
        listeningSocket = -1
    }

    /// Stops listening, finishes the requests in flight and ends the threads.
    func stop() {
        idleSweeper?.cancel()
        idleSweeper = nil
        if let daemon {
            MHD_stop_daemon(daemon)
            self.daemon = nil
        }
        handlerBox?.release()
        handlerBox = nil
        ledger = nil
        if listeningSocket >= 0 {
            close(listeningSocket)
            listeningSocket = -1
        }
    }

    deinit { stop() }

    /// Connections open at once over all clients: up to 16,384, within the descriptors the
    /// process may open (its soft limit raised to the hard one first, as nginx's
    /// `worker_rlimit_nofile` does), keeping 64 for the stores and the listening socket.
    private static func connectionLimit() -> Int {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        let descriptors = Int(clamping: min(limit.rlim_cur, 1 << 20))
        return max(16, min(16_384, descriptors - 64))
    }

    static func display(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// A bound, listening socket for the first address `host` resolves to.
    private static func bindListeningSocket(host: String, port: Int) throws -> (socket: Int32, port: Int, isIPv6: Bool) {
        guard (0...65535).contains(port) else { throw StartError(description: "port \(port) is not between 0 and 65535") }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0, let first = found else {
            throw StartError(description: "\(display(host: host, port: port)): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(found) }
        let address = first.pointee
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { throw StartError(description: "\(display(host: host, port: port)): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, address.ai_addr, address.ai_addrlen) == 0, listen(descriptor, 1024) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw StartError(description: "cannot listen on \(display(host: host, port: port)): \(reason)")
        }
        // Non-blocking: every thread of the pool accepts on this socket, and one must not wait in
        // accept() for a connection another thread took.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            close(descriptor)
            throw StartError(description: "\(display(host: host, port: port)): \(String(cString: strerror(errno)))")
        }
        let isIPv6 = Int32(bound.ss_family) == AF_INET6
        let networkPort = withUnsafePointer(to: &bound) { pointer -> UInt16 in
            isIPv6 ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        return (descriptor, Int(UInt16(bigEndian: networkPort)), isIPv6)
    }

    /// Called when a request's headers are in (answered on the next call, once any body is in,
    /// which keeps the connection alive; a method that takes no body here is answered at once,
    /// and its connection closed), then for each piece of a body (discarded).
    private static let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, uploadSize, state in
        guard let context, let connection, let url, let state, let uploadSize else { return .NO }
        let methodName = method.map { String(cString: $0) } ?? ""
        let readsNoBody = methodName == "GET" || methodName == "HEAD" || methodName == "OPTIONS"
        if state.pointee == nil, readsNoBody {
            state.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            return .YES
        }
        if uploadSize.pointee != 0 {
            uploadSize.pointee = 0
            return .YES
        }
        let box = Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue()
        // Busy from here, once the request is whole, until its answer is sent: a request whose
        // body trickles in stays idle, so the idle timer still ends it.
        ServedConnection.of(connection)?.requestBegan()
        let request = HTTPRequest(method: methodName, path: url, connection: connection)
        return send(box.handle(request), on: connection, state: state)
    }

    /// The request state of a response sent from a file on a corked socket.
    private static var corkedState: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 2) }

    /// Called when a response was sent (or its connection closed): the connection is idle from
    /// now, and a socket corked for the response is uncorked, which sends the last partial
    /// segment at once.
    private static let completedHandler: MHD_RequestCompletedCallback = { _, connection, state, _ in
        guard let connection else { return }
        ServedConnection.of(connection)?.requestEnded()
        guard let state, state.pointee == corkedState else { return }
        state.pointee = nil
        _ = ctilesync_set_cork(ctilesync_connection_socket(connection), 0)
    }

    /// libmicrohttpd's accept policy: the ledger's word on a new connection from `address`.
    private static let acceptPolicy: MHD_AcceptPolicyCallback = { context, address, _ in
        guard let context, let address, let client = ServeClientAddress(address) else { return .YES }
        return Unmanaged<ServeConnectionLedger>.fromOpaque(context).takeUnretainedValue().admit(client) ? .YES : .NO
    }

    /// Called when a connection starts (its record made, counted and kept as the connection's
    /// socket context) and when it closes, before libmicrohttpd closes its socket (forgotten).
    private static let connectionNotice: MHD_NotifyConnectionCallback = { context, connection, socketContext, code in
        guard let context, let connection, let socketContext else { return }
        let ledger = Unmanaged<ServeConnectionLedger>.fromOpaque(context).takeUnretainedValue()
        switch code {
        case .CONNECTION_NOTIFY_STARTED:
            guard let address = ctilesync_connection_address(connection), let client = ServeClientAddress(address) else { return }
            let served = ServedConnection(socket: ctilesync_connection_socket(connection), client: client)
            ledger.opened(served)
            socketContext.pointee = Unmanaged.passRetained(served).toOpaque()
        case .CONNECTION_NOTIFY_CLOSED:
            guard let pointer = socketContext.pointee else { return }
            socketContext.pointee = nil
            ledger.closed(Unmanaged<ServedConnection>.fromOpaque(pointer).takeRetainedValue())
        default:
            break
        }
    }

    /// Adds headers to a response; names and values reach libmicrohttpd (which copies them) as
    /// C strings without a heap copy of their own.
    private static func add(_ headers: [(name: String, value: String)], to response: OpaquePointer) {
        for header in headers {
            header.name.withCString { name in
                header.value.withCString { value in _ = MHD_add_response_header(response, name, value) }
            }
        }
    }

    /// Queues `answer`. A body sent from a file goes out after the head in a call of its own
    /// (sendfile): the socket is corked until the response is complete, so that the head and
    /// the file's first bytes share a segment, as nginx's `tcp_nopush` does.
    private static func send(_ answer: HTTPResponse, on connection: OpaquePointer, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        let response: OpaquePointer?
        switch answer.body {
        case .bytes(let data):
            response = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .file(let range):
            response = MHD_create_response_from_fd_at_offset64(range.length, range.takeDescriptor(), range.offset)
            if response != nil, ctilesync_set_cork(ctilesync_connection_socket(connection), 1) != 0 { state.pointee = corkedState }
        case .none:
            response = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        if let hash = answer.entityTag {
            "ETag".withCString { name in hash.withQuotedHexCString { _ = MHD_add_response_header(response, name, $0) } }
        }
        add(answer.headers, to: response)
        add(answer.sharedHeaders, to: response)
        return MHD_queue_response(connection, UInt32(answer.status), response)
    }
}
