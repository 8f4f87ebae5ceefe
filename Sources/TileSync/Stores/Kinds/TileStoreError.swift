/// A store-level failure: which store, which item (tile, entry, file), what went wrong, and
/// what the user can do. One type for every adapter so callers match on `kind`.
public struct TileStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for matching (`catch let error as TileStoreError where error.kind == .notFound`).
    public enum Kind: String, Sendable {
        /// The location does not exist.
        case notFound
        /// The location exists but is no tile store of the expected kind.
        case notATileStore
        /// The store is damaged (truncated file, malformed database or archive).
        case corrupt
        /// One tile is unusable: bad coordinate, NULL or empty data, unreadable file.
        case invalidTile
        /// An entry or file that is not a tile (skipped when reading; fatal only when asked).
        case notATile
        /// Metadata that cannot be parsed.
        case invalidMetadata
        /// The destination exists and `--force` was not given.
        case destinationExists
        /// Source and destination are the same file or folder.
        case sameSourceAndDestination
        /// The operation is not supported by this store.
        case unsupported
        /// Reading or writing failed (I/O error, disk full, permission).
        case io
        /// The user stopped the run.
        case interrupted
        /// Store options that do not apply to the store's kind, or contradict each other.
        case invalidOptions
        /// The store is not the one a patch was made for (its `agg_tiles_hash` differs).
        case baseMismatch
        /// The run would pass a limit (`--max-tiles`, the destination's free space); nothing was
        /// written.
        case limitExceeded
        /// Sources of a merge hold one coordinate with different bytes, and the policy is
        /// `abort`; nothing was written.
        case duplicateConflict
    }

    /// What went wrong.
    public let kind: Kind
    /// The store's location as the user gave it (without a kind prefix).
    public let store: String
    /// The tile, entry or file concerned, e.g. `tile 6/10/64 (TMS row 64)` or `entry '../x.png'`.
    public let item: String?
    /// The problem, in words.
    public let message: String
    /// What to do about it, when there is something to say.
    public let hint: String?

    /// An error about a store and, optionally, one item in it.
    public init(_ kind: Kind, store: String, item: String? = nil, message: String, hint: String? = nil) {
        self.kind = kind
        self.store = store
        self.item = item
        self.message = message
        self.hint = hint
    }

    /// The hint every disk-full error carries.
    public static let diskFullHint = "the disk is full; free some space and run again"

    /// Any error as a store error: itself when it is one, else `.io` with its description.
    public init(wrapping error: any Error, store: String, item: String? = nil) {
        if let error = error as? TileStoreError {
            self = error
        } else {
            self.init(.io, store: store, item: item, message: "\(error)")
        }
    }

    /// `store: item: message (hint)` on one line.
    public var description: String {
        var text = store
        if let item { text += ": \(item)" }
        text += ": \(message)"
        if let hint { text += " (\(hint))" }
        return text
    }
}
