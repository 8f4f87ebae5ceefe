import Synchronization

/// What each host a transport talked to answered over: the HTTP version of its answers and how
/// many connections were opened to it. Thread-safe.
final class HTTPHostProtocols: Sendable {
    /// One host (`name:port`).
    struct Host: Sendable, Equatable {
        /// "HTTP/1.1", "HTTP/2", ... of the last answer.
        var version: String
        /// Connections opened to the host.
        var connections: Int
        /// Answers received.
        var answers: Int
    }

    private let hosts = Mutex<[String: Host]>([:])

    /// Counts an answer from `host` over `version`, for which `newConnections` were opened.
    func record(host: String, version: String, newConnections: Int) {
        hosts.withLock { hosts in
            var entry = hosts[host] ?? Host(version: version, connections: 0, answers: 0)
            entry.version = version
            entry.connections += newConnections
            entry.answers += 1
            hosts[host] = entry
        }
    }

    /// Every host answered so far, by name.
    var all: [String: Host] { hosts.withLock { $0 } }

    /// True when some host answered over HTTP/2 or later: requests share a connection.
    var multiplexes: Bool {
        hosts.withLock { $0.values.contains { $0.version != "HTTP/1.1" && $0.version != "HTTP/1.0" } }
    }
}
