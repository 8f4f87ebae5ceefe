import Foundation
import Testing

@Suite("ToolRunner")
struct ToolRunnerTests {
    @Test("A child that writes 200,000 bytes to stderr before stdout is read to the end of both")
    func largeStandardErrorFirst() throws {
        let script = "head -c 200000 /dev/zero | tr '\\0' e >&2; printf 'done'; exit 3"
        let result = try ToolRunner.run(["-c", script], executable: "/bin/sh")
        #expect(result.status == 3)
        #expect(result.stdout == "done")
        #expect(result.stderr.utf8.count == 200_000)
        #expect(result.stderr.utf8.allSatisfy { $0 == UInt8(ascii: "e") })
    }
}
