/// A failed HTTP request: the status when the server answered, what went wrong, and a hint
/// when one helps (credentials). Never holds a secret.
struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status, nil when no answer came.
    let status: Int?
    /// What went wrong.
    let message: String
    /// What to check, when something can be said.
    let hint: String?

    init(status: Int? = nil, message: String, hint: String? = nil) {
        self.status = status
        self.message = message
        self.hint = hint
    }

    var description: String { status.map { "HTTP \($0): \(message)" } ?? message }
}
