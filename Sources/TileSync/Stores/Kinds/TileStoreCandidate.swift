import Foundation

extension TileStoreRegistry {
    /// A location typed without a prefix, with what the registry found out about it once for all
    /// kinds: its URL scheme, or whether a local file or folder is there and the file's first bytes.
    public struct Candidate: Sendable {
        /// What is at a local path.
        public enum Entry: Sendable, Equatable {
            /// Nothing (a store to be created).
            case missing
            /// A folder.
            case folder
            /// A file (or anything that is not a folder), with its first bytes (up to 512).
            case file(head: [UInt8])
            /// Not a local path: a URL.
            case remote
        }

        /// What the user typed.
        public let address: String
        /// The lowercased scheme of a `scheme://...` address, else nil.
        public let urlScheme: String?
        /// What is at the address on the local file system.
        public let entry: Entry

        /// Looks at `address`: parses a URL scheme, else `stat`s the path (following a link, as
        /// opening it would) and reads the first bytes of a regular file (never of a FIFO or a device,
        /// which could block or never end).
        public init(address: String) {
            self.address = address
            urlScheme = Self.urlScheme(of: address)
            if urlScheme != nil {
                entry = .remote
                return
            }
            var info = stat()
            if stat(address, &info) != 0 {
                var linkInfo = stat()
                entry = lstat(address, &linkInfo) == 0 ? .file(head: []) : .missing
            } else if info.st_mode & S_IFMT == S_IFDIR {
                entry = .folder
            } else if info.st_mode & S_IFMT == S_IFREG, let handle = FileHandle(forReadingAtPath: address) {
                defer { try? handle.close() }
                entry = .file(head: [UInt8]((try? handle.read(upToCount: 512)) ?? Data()))
            } else {
                entry = .file(head: [])
            }
        }

        /// True when the address ends in one of `suffixes` (compared case-insensitively).
        public func hasSuffix(in suffixes: [String]) -> Bool {
            let name = address.lowercased()
            return suffixes.contains { name.hasSuffix($0) }
        }

        /// The first bytes of an existing file, empty otherwise.
        public var head: [UInt8] {
            if case .file(let head) = entry { return head }
            return []
        }

        /// The lowercased scheme of a `scheme://...` address, else nil (looks at the text only).
        public static func urlScheme(of address: String) -> String? {
            guard let separator = address.range(of: "://") else { return nil }
            let scheme = address[..<separator.lowerBound]
            guard let first = scheme.first, first.isASCII, first.isLetter,
                  scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }) else { return nil }
            return scheme.lowercased()
        }
    }
}
