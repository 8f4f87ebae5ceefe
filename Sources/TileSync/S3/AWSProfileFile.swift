import Foundation

/// The sections of an AWS shared credentials or config file (`~/.aws/credentials`,
/// `~/.aws/config`): `[name]` or, in the config file, `[profile name]`, then `key = value` lines;
/// `#` and `;` start comments, and indented lines (nested settings) are passed over.
struct AWSProfileFile: Sendable {
    /// Settings per profile name, keys lowercased.
    let profiles: [String: [String: String]]

    /// Parses a file's text; `isConfigFile` strips the `profile ` prefix of section names.
    init(text: String, isConfigFile: Bool) {
        var profiles: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if let first = rawLine.first, first == " " || first == "\t" { continue }
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { current = nil; continue }
                var name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                if isConfigFile, name.hasPrefix("profile ") {
                    name = String(name.dropFirst("profile ".count)).trimmingCharacters(in: .whitespaces)
                }
                current = name
                profiles[name, default: [:]] = profiles[name] ?? [:]
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let comment = value.range(of: " #") ?? value.range(of: " ;") {
                value = value[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            profiles[current, default: [:]][key] = value
        }
        self.profiles = profiles
    }

    /// Reads a file; nil when it does not exist or cannot be read.
    init?(path: String, isConfigFile: Bool) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(text: String(decoding: data, as: UTF8.self), isConfigFile: isConfigFile)
    }

    /// One setting of one profile.
    func value(_ key: String, profile: String) -> String? {
        profiles[profile]?[key].flatMap { $0.isEmpty ? nil : $0 }
    }
}
