/// A request path of the shape `/NAME/{z}/{x}/{y}.{ext}` with nothing to decode (letters,
/// digits, `.`, `_`, `~` and `-` between its four slashes, no segment `.` or `..`): the router
/// answers it from the bytes as sent, and sends any other path the general way, which decodes
/// it (`RequestPath`) to the same segments.
struct PlainTilePath {
    /// The segments' byte ranges in the path: the store's name, the zoom, the column, and the
    /// row with its extension.
    let name: Range<Int>
    let z: Range<Int>
    let x: Range<Int>
    let y: Range<Int>

    /// The four segments of `path`, or nil when it has another shape or anything to decode.
    init?(_ path: UnsafeBufferPointer<UInt8>) {
        guard path.first == UInt8(ascii: "/") else { return nil }
        var ranges = (0..<0, 0..<0, 0..<0, 0..<0)
        var found = 0
        var start = 1
        for index in 1...path.count {
            guard index == path.count || path[index] == UInt8(ascii: "/") else {
                guard Self.isPlain(path[index]) else { return nil }
                continue
            }
            let segment = start..<index
            guard !segment.isEmpty, !Self.isDotSegment(path, segment) else { return nil }
            switch found {
            case 0: ranges.0 = segment
            case 1: ranges.1 = segment
            case 2: ranges.2 = segment
            case 3: ranges.3 = segment
            default: return nil
            }
            found += 1
            start = index + 1
        }
        guard found == 4 else { return nil }
        (name, z, x, y) = ranges
    }

    /// An unreserved character of RFC 3986.
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private static func isDotSegment(_ path: UnsafeBufferPointer<UInt8>, _ segment: Range<Int>) -> Bool {
        segment.count <= 2 && segment.allSatisfy { path[$0] == UInt8(ascii: ".") }
    }
}
