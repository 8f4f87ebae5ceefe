/// The 64-byte block framing that MD5 and SHA-256 share: input split into whole blocks (a
/// partial one kept for the next update), the total length counted, and the final padding
/// (`0x80`, zeros, the length in bits) in the byte order of the digest.
struct DigestBlocks {
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// Hands `compress` each whole block that `bytes` completes, in order.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ compress: (UnsafeRawBufferPointer) -> Void) {
        length &+= UInt64(bytes.count)
        var index = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<taken])
            index = taken
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - index >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[index..<index + 64]))
            index += 64
        }
        pending.append(contentsOf: bytes[index...])
    }

    /// Hands `compress` the padded last block or two; the blocks must not be fed afterwards.
    /// - Parameter bigEndianLength: the length field's byte order (SHA-256: big, MD5: little).
    func finish(bigEndianLength: Bool, _ compress: (UnsafeRawBufferPointer) -> Void) {
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = length &* 8
        withUnsafeBytes(of: bigEndianLength ? bits.bigEndian : bits.littleEndian) { tail.append(contentsOf: $0) }
        tail.withUnsafeBytes { block in
            for offset in stride(from: 0, to: block.count, by: 64) {
                compress(UnsafeRawBufferPointer(rebasing: block[offset..<offset + 64]))
            }
        }
    }
}
