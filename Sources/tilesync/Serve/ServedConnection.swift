import CTileSyncMicroHTTPD
import Foundation
import Synchronization

/// One connection the server holds: its socket, its client, and whether a request is in
/// progress on it or since when it has been idle (`ServeConnectionLedger` closes the idle one
/// unused longest when a limit is reached).
final class ServedConnection: Sendable {
    let socket: Int32
    let client: ServeClientAddress
    /// -1 while a request is in progress, else the monotonic time (nanoseconds) it became idle.
    private let activity: Atomic<Int>

    init(socket: Int32, client: ServeClientAddress, now: Int = ServedConnection.now()) {
        self.socket = socket
        self.client = client
        activity = Atomic(now)
    }

    /// A request has begun on the connection.
    func requestBegan() { activity.store(-1, ordering: .relaxed) }

    /// The connection's request is answered (or abandoned): it is idle from `now`.
    func requestEnded(now: Int = ServedConnection.now()) { activity.store(now, ordering: .relaxed) }

    /// Since when the connection has been idle (monotonic nanoseconds); nil while a request is in progress.
    var idleSince: Int? {
        let value = activity.load(ordering: .relaxed)
        return value < 0 ? nil : value
    }

    /// The record of `connection`, kept as its socket context since it started.
    static func of(_ connection: OpaquePointer) -> ServedConnection? {
        ctilesync_connection_context(connection).map { Unmanaged<ServedConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    static func now() -> Int { Int(clamping: DispatchTime.now().uptimeNanoseconds) }
}
