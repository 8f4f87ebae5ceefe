import Foundation
import TileSync

/// A store served under a name. Each request takes the current version; when the store's file
/// changed (a sync or apply renamed a new version over it, or committed into an MBTiles) the
/// store is reopened, and requests already running finish on the version they took, so each
/// request sees one version.
final class ServedStore: @unchecked Sendable {
    /// The name in URLs (`/NAME/{z}/{x}/{y}.png`).
    let name: String
    let location: TileStoreLocation
    private let lock = NSLock()
    private var version: ServedStoreVersion
    private var checked = DispatchTime.now()
    /// How often, at most, the store's file is looked at for a new version.
    static let recheckNanoseconds: UInt64 = 200_000_000

    /// Opens the store.
    /// - Throws: `TileStoreError` when it cannot be opened.
    init(name: String, location: TileStoreLocation) throws {
        self.name = name
        self.location = location
        version = try ServedStoreVersion(location: location)
    }

    /// The version to answer a request from: reopened first when the file changed since it
    /// was opened (looked at no more often than `recheckNanoseconds`). When the new version
    /// cannot be opened yet (a rename in flight), the old one answers.
    func current() -> ServedStoreVersion {
        lock.lock()
        let now = DispatchTime.now()
        guard version.stamp != nil, now.uptimeNanoseconds &- checked.uptimeNanoseconds >= Self.recheckNanoseconds else {
            defer { lock.unlock() }
            return version
        }
        checked = now
        let known = version
        lock.unlock()
        guard let stamp = location.resource.versionStamp, stamp != known.stamp,
              let reopened = try? ServedStoreVersion(location: location) else { return known }
        lock.lock()
        defer { lock.unlock() }
        if version === known { version = reopened }
        return version
    }

    /// A name is usable in a URL path: letters, digits, `.`, `_` and `-`, not starting with a
    /// dot or an underscore (those are the server's own: `/_assets/`).
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != ".", first != "_", name.utf8.count <= 100 else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// The name a store gets when none is given: its file or folder name without the
    /// extension (`world.mbtiles` -> `world`), with characters a URL path would need to encode
    /// replaced by `-`.
    static func defaultName(for address: String) -> String {
        var base = String(address.split(separator: "/").last ?? "")
        for suffix in TileStoreRegistry.standard.fileSuffixes where base.lowercased().hasSuffix(suffix) && base.count > suffix.count {
            base = String(base.dropLast(suffix.count))
            break
        }
        var name = String(base.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".contains(Character(scalar))) ? Character(scalar) : "-"
        })
        while name.hasPrefix(".") || name.hasPrefix("_") { name.removeFirst() }
        return name.isEmpty ? "tiles" : String(name.prefix(100))
    }
}
