/// The options of one store (its layout, MBTiles schema, dedup ...), carried by its
/// `TileStoreLocation`. Each kind reads the keys it understands (`TileStoreKind.optionNames`)
/// into its own typed options; the engines pass them through without looking.
public struct TileStoreOptions: Sendable, CustomStringConvertible {
    private var values: [String: any Sendable] = [:]

    /// No options: every kind uses its defaults.
    public init() {}

    /// The value set for a key, or nil.
    public subscript<Key: TileStoreOptions.Key>(_ key: Key.Type) -> Key.Value? {
        get { values[Key.name] as? Key.Value }
        set { values[Key.name] = newValue.map { $0 as any Sendable } }
    }

    /// The names of the options that are set, sorted.
    public var names: [String] { values.keys.sorted() }

    /// `name=value` of every option set, sorted by name (`-` for none): a stable text for the
    /// sync state's identity and for messages.
    public var description: String { description(excluding: []) }

    /// `description` without the options named in `excluded`.
    public func description(excluding excluded: Set<String>) -> String {
        let shown = names.filter { !excluded.contains($0) }
        return shown.isEmpty ? "-" : shown.map { "\($0)=\(values[$0].map { String(describing: $0) } ?? "")" }.joined(separator: ",")
    }
}
