/// Command-line words sorted into positionals, option values and flags, read back through the
/// `OptionDefinition` constants of the command.
struct ParsedArguments {
    let spec: CommandSpec
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `words` against a spec: `--name value`, `--name=value`, flags, `--` ends options.
    /// - Throws: `UsageError` for unknown options, missing values, repeated options, or the wrong
    ///   number of arguments.
    init(_ words: [String], spec: CommandSpec) throws(UsageError) {
        self.spec = spec
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" || Self.isNumber(word) {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            guard word.hasPrefix("--") else {
                throw UsageError("unknown option '\(word)' (options are long, e.g. --help)", spec: spec)
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.allOptions.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '--\(name)'", spec: spec)
            }
            if option.valueName == nil {
                guard inlineValue == nil else { throw UsageError("'--\(name)' takes no value", spec: spec) }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else { throw UsageError("missing value for '--\(name) <\(option.valueName ?? "value")>'", spec: spec) }
                value = words[index]
                index += 1
            }
            if option.isRepeatable, let earlier = values[name] {
                values[name] = earlier + "\n" + value
                continue
            }
            guard values[name] == nil else { throw UsageError("'--\(name)' is given twice", spec: spec) }
            values[name] = value
        }
        if flags.contains(CommandSpec.help.name) { return }
        try checkArgumentCount()
    }

    private func checkArgumentCount() throws(UsageError) {
        let required = spec.arguments.filter { !$0.isOptional }.count
        let allowed = spec.arguments.contains(where: \.isVariadic) ? Int.max : spec.arguments.count
        guard (required...allowed).contains(positionals.count) else {
            if positionals.count < required {
                let missing = spec.arguments[positionals.count..<required].map { "<\($0.name)>" }.joined(separator: " ")
                throw UsageError("missing \(missing)", spec: spec)
            }
            throw UsageError("unexpected argument '\(positionals[spec.arguments.count])'", spec: spec)
        }
    }

    /// True when the flag was given.
    func flag(_ option: OptionDefinition) -> Bool { flags.contains(option.name) }

    /// The value of an option, or nil when absent.
    func value(_ option: OptionDefinition) -> String? { values[option.name] }

    /// True when the option was given (flag or value).
    func isGiven(_ option: OptionDefinition) -> Bool { flag(option) || value(option) != nil }

    /// An integer option within `range`, or nil when absent.
    func integer(_ option: OptionDefinition, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("'\(option.flagText)' must be a whole number in \(range.lowerBound)...\(range.upperBound), not '\(text)'", spec: spec)
        }
        return value
    }

    /// A decimal option, or nil when absent.
    func double(_ option: OptionDefinition) throws(UsageError) -> Double? {
        guard let text = value(option) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw UsageError("'\(option.flagText)' must be a number, not '\(text)'", spec: spec)
        }
        return value
    }

    /// One of an enum's raw values, or nil when absent.
    func choice<Value: RawRepresentable & CaseIterable>(_ option: OptionDefinition, as type: Value.Type) throws(UsageError) -> Value?
    where Value.RawValue == String {
        guard let text = value(option) else { return nil }
        guard let value = Value(rawValue: text) else {
            let names = Value.allCases.map(\.rawValue)
            let list = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
            throw UsageError("\(option.flagText) must be \(list), not '\(text)'", spec: spec)
        }
        return value
    }

    private static func isNumber(_ word: String) -> Bool { Double(word) != nil }
}
