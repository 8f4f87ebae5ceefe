import Foundation

/// A fresh folder under the system temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    /// - Parameter parent: the folder to make it in (the system temporary directory by default).
    init(in parent: String = NSTemporaryDirectory()) throws {
        path = (parent.hasSuffix("/") ? parent : parent + "/") + "tilesync-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }
}
