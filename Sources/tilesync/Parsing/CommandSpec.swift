/// What a command accepts, and the help text made from it.
struct CommandSpec: Sendable {
    struct Argument: Sendable {
        let name: String
        let help: String
        var isOptional = false
        /// It takes any number of words (at least one unless optional); at most one argument is
        /// variadic, and the arguments after it take one word each from the end.
        var isVariadic = false
    }

    let name: String
    let abstract: String
    let discussion: String
    let arguments: [Argument]
    let options: [OptionDefinition]
    let examples: [String]

    static let help = OptionDefinition.flag("help", help: "Show help for this command.")

    var allOptions: [OptionDefinition] { options + [Self.help] }

    var usage: String {
        var parts = ["tilesync", name]
        if !options.isEmpty { parts.append("[<options>]") }
        parts += arguments.map { argument in
            let name = "<\(argument.name)>" + (argument.isVariadic ? " ..." : "")
            return argument.isOptional ? "[\(name)]" : name
        }
        return parts.joined(separator: " ")
    }

    var helpText: String {
        var text = "OVERVIEW: \(abstract)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments { text += Self.row("<\(argument.name)>", argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in allOptions {
            let label = option.flagText + (option.valueName.map { " <\($0)>" } ?? "")
            text += Self.row(label, option.help)
        }
        if !examples.isEmpty {
            text += "\nEXAMPLES:\n"
            for example in examples { text += "  \(example)\n" }
        }
        return text
    }

    private static func row(_ label: String, _ help: String) -> String {
        let padded = "  " + label
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        if padded.count < 26 {
            var text = padded + String(repeating: " ", count: 26 - padded.count) + lines[0] + "\n"
            for line in lines.dropFirst() { text += String(repeating: " ", count: 26) + line + "\n" }
            return text
        }
        return padded + "\n" + lines.map { String(repeating: " ", count: 26) + $0 }.joined(separator: "\n") + "\n"
    }
}
