/// What one answer of an `HTTPTransport` request comes to: the caller's answer, or a failure
/// that another attempt may or may not cure.
enum HTTPAttemptOutcome<Answer: Sendable, Failure: Error>: Sendable {
    case answer(Answer)
    case failure(Failure, retryable: Bool)
}
