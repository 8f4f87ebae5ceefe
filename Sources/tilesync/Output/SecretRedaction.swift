import Foundation

/// Hides what an HTTP URL in printed text may carry as a secret: the values of query
/// parameters whose names say so (`key`, `apikey`, `access_token`, `X-Amz-Signature`: any name
/// containing key, token, secret, sig, pass, auth or credential) and the password of its user
/// part. `--header` values are never part of a message; keys in the URL are part of the
/// store's address, so every line the tool prints passes through here.
enum SecretRedaction {
    static let mask = "***"
    private static let secretWords = ["key", "token", "secret", "sig", "pass", "auth", "credential"]

    /// `text` with every secret of its URLs replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard text.contains("http://") || text.contains("https://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let begin = firstURL(in: rest) {
            result += rest[..<begin]
            let end = rest[begin...].firstIndex { $0.isWhitespace || "\"'<>`".contains($0) } ?? rest.endIndex
            result += redactedURL(String(rest[begin..<end]))
            rest = rest[end...]
        }
        return result + rest
    }

    private static func firstURL(in text: Substring) -> Substring.Index? {
        [text.range(of: "http://"), text.range(of: "https://")].compactMap { $0?.lowerBound }.min()
    }

    private static func redactedURL(_ url: String) -> String {
        var url = url
        if let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
           !url[scheme.upperBound..<at].contains("/"), let colon = url[scheme.upperBound..<at].firstIndex(of: ":") {
            url.replaceSubrange(url.index(after: colon)..<at, with: mask)
        }
        guard let question = url.firstIndex(of: "?") else { return url }
        let fragment = url[question...].firstIndex(of: "#") ?? url.endIndex
        let parameters = url[url.index(after: question)..<fragment].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals].lowercased()
            return secretWords.contains(where: { name.contains($0) }) ? pair[..<equals] + "=" + mask : String(pair)
        }
        return url[...question] + parameters.joined(separator: "&") + url[fragment...]
    }
}
