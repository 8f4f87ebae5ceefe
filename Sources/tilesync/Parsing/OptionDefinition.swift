/// One option the command line accepts, declared once as a static constant of the command or
/// option group that reads it: parsing looks options up by these constants (a misspelt name
/// does not compile), and help text and `docs/commands.md` are made from them.
struct OptionDefinition: Hashable, Sendable {
    /// Long name without dashes, e.g. `min-zoom`.
    let name: String
    /// Shown as `<value>`; nil for a flag.
    let valueName: String?
    let help: String
    /// May be given several times; the values are joined with newlines.
    var isRepeatable = false

    /// An option that takes a value.
    static func value(_ name: String, _ valueName: String, help: String) -> OptionDefinition {
        OptionDefinition(name: name, valueName: valueName, help: help)
    }

    /// An option that takes a value and may be given several times (values joined with newlines).
    static func repeatable(_ name: String, _ valueName: String, help: String) -> OptionDefinition {
        OptionDefinition(name: name, valueName: valueName, help: help, isRepeatable: true)
    }

    /// A flag (no value).
    static func flag(_ name: String, help: String) -> OptionDefinition {
        OptionDefinition(name: name, valueName: nil, help: help)
    }

    /// `--name`, as messages show it.
    var flagText: String { "--" + name }
}
