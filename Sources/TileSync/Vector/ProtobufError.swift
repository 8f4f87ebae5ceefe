/// A protocol buffers message that cannot be read: what is wrong and at which byte.
struct ProtobufError: Error, Equatable, CustomStringConvertible {
    let reason: String
    let offset: Int

    init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    var description: String { "\(reason) at byte \(offset)" }
}
