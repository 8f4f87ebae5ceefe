/// A path template that cannot be used.
public struct PathTemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    public let template: String
    public let reason: String

    public var description: String { "layout '\(template)' \(reason)" }
}
