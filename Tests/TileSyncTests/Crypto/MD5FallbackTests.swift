import Foundation
import Testing
@testable import TileSync

@Suite("MD5 where libcrypto refuses it")
struct MD5FallbackTests {
    @Test("MD5 works when libcrypto refuses it: a failed fetch gives no digest, and Swift's MD5 takes over")
    func digestFallback() throws {
        let vectors = [("", "D41D8CD98F00B204E9800998ECF8427E"), ("abc", "900150983CD24FB0D6963F7D28E17F72"),
                       ("message digest", "F96B697D7CB7938D525A2F31AAF161D0"),
                       (String(repeating: "1234567890", count: 8), "57EDF4A22BE3C955AC49DA2E2107B67A")]
        #if !canImport(CryptoKit) && canImport(CTileSyncCrypto)
        let refused = OneShotDigest(fetching: "NO-SUCH-DIGEST")
        #expect(!refused.isAvailable)
        for (text, hex) in vectors {
            #expect(refused.digest(Data(text.utf8)) == nil)
            #expect(MD5Hasher.hash(Data(text.utf8), with: refused).hex == hex)
        }
        #endif
        for (text, hex) in vectors {
            let portable = MD5Hasher(libcrypto: false)
            for chunk in Array(text.utf8).chunked(into: 7) { portable.update(Data(chunk)) }
            #expect(try portable.finalize().hex == hex)
        }
        let long = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        #expect(PortableMD5.hash(long) == ContentHash(of: long))
    }
}
