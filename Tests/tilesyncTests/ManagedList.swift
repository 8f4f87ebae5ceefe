import Foundation

/// Responses collected by another thread.
final class ManagedList: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [CurlResponse] = []
    var items: [CurlResponse] { lock.withLock { values } }
    func append(_ value: CurlResponse) { lock.withLock { values.append(value) } }
}
