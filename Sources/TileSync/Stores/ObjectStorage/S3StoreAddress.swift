/// `s3://bucket/prefix` split into the bucket and the key prefix (no leading or trailing `/`).
struct S3StoreAddress: Sendable, Hashable, CustomStringConvertible {
    /// The bucket.
    let bucket: String
    /// The key prefix the store lives under, empty for the whole bucket.
    let prefix: String

    /// Parses an address.
    /// - Throws: `TileStoreError` `.notATileStore` for anything but `s3://` with a bucket name
    ///   of 3 to 63 lowercase letters, digits, dots and hyphens.
    init(parsing address: String) throws(TileStoreError) {
        guard address.lowercased().hasPrefix("s3://") else {
            throw TileStoreError(.notATileStore, store: address, message: "an S3 store is named s3://bucket/prefix")
        }
        let rest = address.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        let validBytes = bucket.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
        guard (3...63).contains(bucket.count), validBytes else {
            throw TileStoreError(.notATileStore, store: address,
                                 message: "'\(bucket)' is not a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)")
        }
        self.bucket = bucket
        let path = rest.dropFirst(bucket.count).split(separator: "/", omittingEmptySubsequences: true)
        guard !path.contains(where: { $0 == "." || $0 == ".." }) else {
            throw TileStoreError(.notATileStore, store: address, message: "the prefix may not hold '.' or '..' segments")
        }
        prefix = path.joined(separator: "/")
    }

    /// The key of a path below the prefix.
    func key(_ relative: String) -> String { prefix.isEmpty ? relative : prefix + "/" + relative }

    /// The prefix as a listing prefix: ending in `/`, empty for the whole bucket.
    var listingPrefix: String { prefix.isEmpty ? "" : prefix + "/" }

    var description: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/" + prefix) }
}
