import Foundation
import Testing
@testable import TileSync

@Suite("Range answers: the first byte and the object's size from Content-Range, whatever a server sends")
struct ByteRangeAnswerTests {
    func answer(_ contentRange: String?, status: Int = 206) -> ByteRangeAnswer {
        ByteRangeAnswer(status: status, body: Data(), contentRange: contentRange, contentLength: nil, etag: nil)
    }

    @Test("bytes a-b/N and bytes */N; a 200 without Content-Range is the whole object from byte 0")
    func wellFormed() {
        #expect(answer("bytes 0-16383/734281").firstByte == 0)
        #expect(answer("bytes 0-16383/734281").totalSize == 734_281)
        #expect(answer("bytes 16384-32767/734281").firstByte == 16_384)
        #expect(answer("bytes */734281", status: 416).firstByte == nil)
        #expect(answer("bytes */734281", status: 416).totalSize == 734_281)
        #expect(answer("bytes 0-9/*").totalSize == nil)
        #expect(answer(nil, status: 200).firstByte == 0)
        #expect(answer(nil, status: 200).totalSize == nil)
    }

    @Test("A dash before the space, no space, no dash, signs and garbage: no first byte, never a trap")
    func hostile() {
        for text in ["5-9 bytes/100", "a-b c/5", "-", " ", "bytes", "bytes 5", "bytes -5-9/100", "bytes +5-9/100",
                     "bytes 99999999999999999999-1/5", "bytes  5-9/100", "\u{0}-\u{0} /", "bytes é-9/100"] {
            #expect(answer(text).firstByte == nil, "\(text)")
        }
        #expect(answer("bytes 5-9/-100").totalSize == nil)
        #expect(answer("bytes 5-9/+100").totalSize == nil)
        #expect(answer("bytes 5-9/ 100 ").totalSize == 100)
    }
}
