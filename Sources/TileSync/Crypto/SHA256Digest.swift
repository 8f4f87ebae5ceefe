import Foundation
#if canImport(CryptoKit)
import CryptoKit
#elseif canImport(CTileSyncCrypto)
import CTileSyncCrypto
#endif

/// SHA-256 and HMAC-SHA256 of whole buffers, as Signature V4 needs them: libcrypto on Linux,
/// CryptoKit on Apple platforms, `PortableSHA256` in a build with neither.
enum SHA256Digest {
    /// The 32-byte SHA-256 of `bytes`.
    static func hash(_ bytes: some ContiguousBytes) -> [UInt8] {
        #if canImport(CryptoKit)
        return bytes.withUnsafeBytes { Array(SHA256.hash(data: $0)) }
        #elseif !canImport(CTileSyncCrypto)
        return bytes.withUnsafeBytes { PortableSHA256.hash($0) }
        #else
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(buffer.baseAddress, buffer.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        return status == 1 && length == 32 ? digest : []
        #endif
    }

    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    static func hmac(key: [UInt8], message: some ContiguousBytes) -> [UInt8] {
        #if canImport(CryptoKit)
        return message.withUnsafeBytes { Array(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: key))) }
        #elseif !canImport(CTileSyncCrypto)
        return message.withUnsafeBytes { PortableSHA256.hmac(key: key, message: $0) }
        #else
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = message.withUnsafeBytes { buffer in
            key.withUnsafeBufferPointer { keyBytes in
                digest.withUnsafeMutableBufferPointer { out in
                    HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                         buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count, out.baseAddress, &length)
                }
            }
        }
        return result != nil && length == 32 ? digest : []
        #endif
    }

    /// Lowercase hex digits of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
