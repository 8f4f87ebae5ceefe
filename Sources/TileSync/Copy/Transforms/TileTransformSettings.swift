/// What a run asks its tile transforms to do (`TileConverter.Options.transforms`,
/// `TileSynchronizer.Options.transforms`): one value per transform, each declared by its
/// transform as a property of this type (`compression`, `rasterEncoding`, `layerFilter`), so a
/// new transform adds its own without touching the run options.
public struct TileTransformSettings: Sendable {
    private var values: [String: any Sendable] = [:]

    public init() {}

    /// True when no transform is asked for.
    public var isEmpty: Bool { values.isEmpty }

    /// The value a transform keeps under `name`, nil when absent.
    func value<Value: Sendable>(_ name: String, as type: Value.Type) -> Value? { values[name] as? Value }

    /// Sets (or, with nil, removes) a transform's value.
    mutating func set(_ name: String, _ value: (any Sendable)?) {
        values[name] = value
    }
}
