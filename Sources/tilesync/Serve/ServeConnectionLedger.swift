import Foundation
import Synchronization

/// The connections the server holds, by client address, and who gives way at a limit. A client
/// holding `perClient` connections, or a server holding `total`, takes a new connection in place
/// of the idle one unused longest (that one's socket is shut down: an idle keep-alive, a
/// connection that never sent a whole request), as nginx closes idle keep-alive connections when
/// it runs out; the new one is refused only when every connection that could give way has a
/// request in progress. So one client cannot hold more than its share, and thousands of idle
/// connections, from one address or many, never keep a request out. `shutDownIdle(before:)`
/// ends connections idle too long however slowly the bytes of a request trickle in. Admission
/// and the count of a new connection are two steps (libmicrohttpd's accept policy, then its
/// start notice), so threads accepting at the same instant may pass a limit by one each.
final class ServeConnectionLedger: Sendable {
    let perClient: Int
    let total: Int
    /// Connections shut down here but not yet closed by libmicrohttpd still hold a descriptor
    /// each: past `total` plus this many, a new connection is refused until some have closed.
    let closingAllowance: Int
    private let state = Mutex(State())

    private struct State {
        /// Every connection started and not yet closed, by client, oldest first.
        var byClient: [ServeClientAddress: [ServedConnection]] = [:]
        /// Connections shut down here whose close has not been reported yet (they no longer count).
        var closing: Set<ObjectIdentifier> = []
        var counted = 0
    }

    /// - Parameters:
    ///   - perClient: connections one client address may hold (at least 1).
    ///   - total: connections the server holds over all clients (at least 1).
    ///   - closingAllowance: descriptors of connections being closed allowed beyond `total`
    ///     (the server keeps 64 descriptors back; at least 1).
    init(perClient: Int, total: Int, closingAllowance: Int = 32) {
        self.perClient = max(1, perClient)
        self.total = max(1, total)
        self.closingAllowance = max(1, closingAllowance)
    }

    /// Whether a connection from `client` is taken, shutting down an idle one to make room when a
    /// limit is reached; false when nothing can give way.
    func admit(_ client: ServeClientAddress) -> Bool {
        state.withLock { state in
            guard state.counted + state.closing.count < total + closingAllowance else { return false }
            if let held = state.byClient[client], held.count - Self.closingCount(held, state) >= perClient {
                guard let idle = Self.longestIdle(in: held, state) else { return false }
                Self.shutDown(idle, &state)
            }
            if state.counted >= total {
                guard let idle = Self.longestIdle(in: state.byClient.values.joined(), state) else { return false }
                Self.shutDown(idle, &state)
            }
            return true
        }
    }

    /// Counts a connection that has started.
    func opened(_ connection: ServedConnection) {
        state.withLock { state in
            state.byClient[connection.client, default: []].append(connection)
            state.counted += 1
        }
    }

    /// Forgets a connection that has closed; its socket is not touched here again.
    func closed(_ connection: ServedConnection) {
        state.withLock { state in
            guard var held = state.byClient[connection.client],
                  let index = held.firstIndex(where: { $0 === connection }) else { return }
            held.remove(at: index)
            state.byClient[connection.client] = held.isEmpty ? nil : held
            if state.closing.remove(ObjectIdentifier(connection)) == nil { state.counted -= 1 }
        }
    }

    /// Shuts down every connection idle since before `deadline` (monotonic nanoseconds): with no
    /// request in progress since then, whatever bytes of a next request came meanwhile.
    /// - Returns: how many were shut down.
    @discardableResult
    func shutDownIdle(before deadline: Int) -> Int {
        state.withLock { state in
            var stale: [ServedConnection] = []
            for connection in state.byClient.values.joined() where !state.closing.contains(ObjectIdentifier(connection)) {
                if let since = connection.idleSince, since < deadline { stale.append(connection) }
            }
            for connection in stale { Self.shutDown(connection, &state) }
            return stale.count
        }
    }

    /// Connections counted now (those being shut down are not).
    var count: Int { state.withLock { $0.counted } }

    private static func closingCount(_ held: [ServedConnection], _ state: State) -> Int {
        state.closing.isEmpty ? 0 : held.reduce(0) { $0 + (state.closing.contains(ObjectIdentifier($1)) ? 1 : 0) }
    }

    private static func longestIdle<Connections: Sequence<ServedConnection>>(in connections: Connections, _ state: State) -> ServedConnection? {
        var found: ServedConnection?
        var foundSince = Int.max
        for connection in connections where !state.closing.contains(ObjectIdentifier(connection)) {
            guard let since = connection.idleSince, since < foundSince else { continue }
            found = connection
            foundSince = since
        }
        return found
    }

    /// Shuts the connection's socket down (libmicrohttpd sees it end and closes it). Its
    /// descriptor is still libmicrohttpd's: a connection is forgotten here, under the same lock,
    /// before libmicrohttpd closes its socket.
    private static func shutDown(_ connection: ServedConnection, _ state: inout State) {
        state.closing.insert(ObjectIdentifier(connection))
        state.counted -= 1
        _ = shutdown(connection.socket, Int32(SHUT_RDWR))
    }
}
