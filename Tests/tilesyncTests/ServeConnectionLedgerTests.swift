import Foundation
import Testing
@testable import tilesync
#if canImport(Glibc)
import Glibc
#endif

@Suite("serve: which connection gives way at the per-client and total limits")
struct ServeConnectionLedgerTests {
    /// A connected pair of sockets: the server's side (given to the ledger) and the client's.
    final class SocketPair {
        let server: Int32
        let client: Int32
        init() {
            var descriptors: [Int32] = [-1, -1]
            _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors)
            server = descriptors[0]
            client = descriptors[1]
        }

        /// Whether the server's side was shut down (the client reads the end of the stream).
        var wasShutDown: Bool {
            var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) == 1 else { return false }
            var byte: UInt8 = 0
            return recv(client, &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }

        deinit {
            close(server)
            close(client)
        }
    }

    static let one = ServeClientAddress(ipv4: 0x7F00_0001)
    static let two = ServeClientAddress(ipv4: 0x7F00_0002)
    static let three = ServeClientAddress(ipv4: 0x0A00_0003)

    /// Opens a connection from `client` in `ledger`, idle since `since`.
    static func open(_ ledger: ServeConnectionLedger, from client: ServeClientAddress, since: Int) -> (ServedConnection, SocketPair) {
        let pair = SocketPair()
        let connection = ServedConnection(socket: pair.server, client: client, now: since)
        ledger.opened(connection)
        return (connection, pair)
    }

    @Test("a client at its limit: the connection idle longest is shut down, one in progress never; refused when all are busy")
    func perClient() {
        let ledger = ServeConnectionLedger(perClient: 3, total: 100)
        let (a, pairA) = Self.open(ledger, from: Self.one, since: 30)
        let (b, pairB) = Self.open(ledger, from: Self.one, since: 10)
        let (c, pairC) = Self.open(ledger, from: Self.one, since: 20)
        let (_, pairOther) = Self.open(ledger, from: Self.two, since: 1)
        #expect(ledger.count == 4)
        #expect(ledger.admit(Self.two), "another client is under its limit")
        #expect(![pairA, pairB, pairC, pairOther].contains { $0.wasShutDown })

        b.requestBegan()
        #expect(ledger.admit(Self.one))
        #expect(pairC.wasShutDown, "c has been idle longest among those not busy")
        #expect(!pairA.wasShutDown && !pairB.wasShutDown && !pairOther.wasShutDown)
        #expect(ledger.count == 3, "c no longer counts")
        let (d, pairD) = Self.open(ledger, from: Self.one, since: 40)
        ledger.closed(c)
        #expect(ledger.count == 4, "a connection shut down here is not uncounted twice when it closes")

        a.requestBegan()
        d.requestBegan()
        #expect(!ledger.admit(Self.one), "all three of the client's connections have a request in progress")
        #expect(![pairA, pairB, pairD, pairOther].contains { $0.wasShutDown })

        a.requestEnded(now: 50)
        #expect(ledger.admit(Self.one))
        #expect(pairA.wasShutDown)
        #expect(!pairB.wasShutDown && !pairD.wasShutDown)
        ledger.closed(a)
        ledger.closed(b)
        ledger.closed(d)
        #expect(ledger.count == 1)
    }

    @Test("the server at its total: the connection idle longest of any client gives way")
    func total() {
        let ledger = ServeConnectionLedger(perClient: 10, total: 3)
        let (_, pairA) = Self.open(ledger, from: Self.one, since: 5)
        let (b, pairB) = Self.open(ledger, from: Self.two, since: 2)
        let (_, pairC) = Self.open(ledger, from: Self.one, since: 9)
        #expect(ledger.admit(Self.three))
        #expect(pairB.wasShutDown)
        #expect(!pairA.wasShutDown && !pairC.wasShutDown)
        ledger.closed(b)
        #expect(ledger.count == 2)
        let (_, _) = Self.open(ledger, from: Self.three, since: 12)
        #expect(ledger.admit(Self.two))
        #expect(pairA.wasShutDown)
        #expect(!pairC.wasShutDown)
    }

    @Test("connections shut down but not yet closed hold descriptors: past the total and the allowance a new one is refused, nothing shut down")
    func closingAllowance() {
        let ledger = ServeConnectionLedger(perClient: 10, total: 2, closingAllowance: 1)
        let (a, pairA) = Self.open(ledger, from: Self.one, since: 1)
        let (_, pairB) = Self.open(ledger, from: Self.two, since: 2)
        #expect(ledger.admit(Self.three))
        #expect(pairA.wasShutDown)
        let (_, _) = Self.open(ledger, from: Self.three, since: 3)
        #expect(!ledger.admit(Self.three), "a is still closing: two counted and one closing fill the total and the allowance")
        #expect(!pairB.wasShutDown)
        ledger.closed(a)
        #expect(ledger.admit(Self.three))
        #expect(pairB.wasShutDown)
    }

    @Test("an IPv4-mapped IPv6 address counts as its IPv4 address; ports do not count")
    func addresses() {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = in_port_t(UInt16(8080).bigEndian)
        v4.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var mapped = sockaddr_in6()
        mapped.sin6_family = sa_family_t(AF_INET6)
        mapped.sin6_port = in_port_t(UInt16(9090).bigEndian)
        withUnsafeMutableBytes(of: &mapped.sin6_addr) { bytes in
            bytes.copyBytes(from: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1] as [UInt8])
        }
        var v6 = mapped
        withUnsafeMutableBytes(of: &v6.sin6_addr) { bytes in
            bytes.copyBytes(from: [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] as [UInt8])
        }
        var other = sockaddr()
        other.sa_family = sa_family_t(AF_UNIX)
        let fromV4 = withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ServeClientAddress($0) } }
        let fromMapped = withUnsafePointer(to: &mapped) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ServeClientAddress($0) } }
        let fromV6 = withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ServeClientAddress($0) } }
        #expect(fromV4 == Self.one)
        #expect(fromMapped == Self.one)
        #expect(fromV6 != nil && fromV6 != Self.one)
        #expect(ServeClientAddress(&other) == nil)
    }
}
