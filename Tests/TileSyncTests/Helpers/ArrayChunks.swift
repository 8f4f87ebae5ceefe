import Foundation

extension Array {
    /// The array in pieces of `size` elements (the last may be shorter).
    func chunked(into size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
