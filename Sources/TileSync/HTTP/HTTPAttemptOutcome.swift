import Foundation

/// What one answer of an `HTTPTransport` request comes to: the caller's answer, or a failure
/// that another attempt may or may not cure, and how long the server asked to wait before it
/// (`Retry-After`), when it did.
enum HTTPAttemptOutcome<Answer: Sendable, Failure: Error>: Sendable {
    case answer(Answer)
    case failure(Failure, retryable: Bool, after: TimeInterval? = nil)
}
