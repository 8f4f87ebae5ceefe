/// A tile list that cannot be used: a line that is not `z/x/y` (or `z x y`, `z,x,y`), a
/// coordinate outside the tile grid, a widening too large, or the file unreadable.
public struct TileListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file the list was read from (`-` for standard input).
    public let file: String
    /// The 1-based line, or nil for the list as a whole.
    public let line: Int?
    /// What is wrong.
    public let message: String

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE: line N: MESSAGE`.
    public var description: String {
        line.map { "\(file): line \($0): \(message)" } ?? "\(file): \(message)"
    }
}
