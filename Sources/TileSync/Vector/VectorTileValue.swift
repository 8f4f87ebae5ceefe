extension VectorTile {
    /// An attribute value, in the type the tile stores it with.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        case string(String)
        case float(Float)
        case double(Double)
        case int(Int64)
        case uint(UInt64)
        case sint(Int64)
        case bool(Bool)

        public var description: String {
            switch self {
            case .string(let text): text
            case .float(let number): "\(number)"
            case .double(let number): "\(number)"
            case .int(let number), .sint(let number): "\(number)"
            case .uint(let number): "\(number)"
            case .bool(let flag): "\(flag)"
            }
        }
    }
}
