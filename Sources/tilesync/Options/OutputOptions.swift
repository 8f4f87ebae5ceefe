/// `--quiet` and `--json`: how a command reports its summary.
struct OutputOptions {
    static let quiet = OptionDefinition.flag("quiet", help: "Print nothing but errors.")
    static let json = OptionDefinition.flag("json", help: "Print the summary as JSON.")
    static let definitions = [quiet, json]

    let quiet: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) {
        quiet = arguments.flag(Self.quiet)
        json = arguments.flag(Self.json)
    }
}
