import Foundation

/// A client's IP address as the server counts its connections: the 4 bytes of IPv4 (an
/// IPv4-mapped IPv6 address counts as its IPv4 address) or the 16 of IPv6; the port is not part
/// of it.
struct ServeClientAddress: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    /// The address of `socketAddress`; nil for a family other than IPv4 and IPv6.
    init?(_ socketAddress: UnsafePointer<sockaddr>) {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            self.init(ipv4: UInt32(bigEndian: address.s_addr))
        case AF_INET6:
            let bytes = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if high == 0, low >> 32 == 0xFFFF {
                self.init(ipv4: UInt32(truncatingIfNeeded: low))
            } else {
                self.init(high: high, low: low)
            }
        default:
            return nil
        }
    }

    /// The IPv4 address `ipv4` (host byte order), kept as its IPv4-mapped IPv6 form.
    init(ipv4: UInt32) {
        self.init(high: 0, low: 0xFFFF << 32 | UInt64(ipv4))
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }
}
