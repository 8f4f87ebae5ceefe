public import Foundation

/// Where and as whom S3 requests go: endpoint, addressing style, region and credentials,
/// found as the AWS command line finds them.
///
/// Order: the explicit endpoint (`--endpoint`), then `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`,
/// the profile's `endpoint_url`; else AWS itself (`https://s3.REGION.amazonaws.com`). Region:
/// `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else `us-east-1`. Credentials:
/// `AWS_ACCESS_KEY_ID` with `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`), else the profile
/// (`AWS_PROFILE`, else `default`) in `AWS_SHARED_CREDENTIALS_FILE` (`~/.aws/credentials`), then
/// in `AWS_CONFIG_FILE` (`~/.aws/config`). Custom endpoints use path-style addressing
/// (`http://host/bucket/key`), as S3-compatible servers expect; AWS gets virtual-hosted style
/// (`https://bucket.s3.region.amazonaws.com/key`) unless the bucket name has a dot.
public struct S3Configuration: Sendable, CustomStringConvertible {
    /// The server, without a path (`http://127.0.0.1:9000`).
    public var endpoint: URL
    /// The signing region.
    public var region: String
    /// The key pair requests are signed with.
    public var credentials: S3Configuration.Credentials
    /// `http://host/bucket/key` (true) or `http://bucket.host/key`.
    public var usesPathStyle: Bool
    /// Requests in flight at once.
    public var transfers: Int
    /// Attempts per request before an error is reported (1 = no retry).
    public var attempts: Int
    /// Seconds a request may wait for the server before it is retried.
    public var timeout: TimeInterval
    /// The first backoff in seconds; each retry doubles it (with full jitter), up to `maximumBackoff`.
    /// The default, 0.5 s, spreads six attempts over up to 15.5 s: long enough for a server
    /// that answers `SlowDown` or briefly serves a half-written object to recover, as AWS asks.
    public var initialBackoff: TimeInterval
    /// The longest backoff in seconds.
    public var maximumBackoff: TimeInterval

    /// Endpoint, region and access key ID; never the secret.
    public var description: String { "\(endpoint.absoluteString) \(region) \(credentials)" }

    /// The default number of requests in flight.
    public static let defaultTransfers = 32

    /// A configuration given in full.
    public init(endpoint: URL, region: String, credentials: S3Configuration.Credentials, usesPathStyle: Bool = true,
                transfers: Int = Self.defaultTransfers, attempts: Int = 6, timeout: TimeInterval = 30,
                initialBackoff: TimeInterval = 0.5, maximumBackoff: TimeInterval = 10) {
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
        self.usesPathStyle = usesPathStyle
        self.transfers = max(1, transfers)
        self.attempts = max(1, attempts)
        self.timeout = timeout
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// Finds the configuration as AWS tools do (see the type's description).
    /// - Parameters:
    ///   - endpoint: an endpoint given on the command line, before any other.
    ///   - environment: the process environment (a parameter for tests).
    ///   - home: the home folder holding `.aws/`; nil: `HOME` from `environment`, else the user's.
    /// - Throws: `S3Error` with status nil when no credentials are found or the endpoint is not
    ///   an `http(s)://` URL; the message names where credentials were looked for, never a secret.
    static func resolve(endpoint: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                        home: String? = nil) throws(S3Error) -> S3Configuration {
        func setting(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let home = home ?? setting("HOME") ?? NSHomeDirectory()
        let profile = setting("AWS_PROFILE") ?? "default"
        let credentialsPath = setting("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials"
        let configPath = setting("AWS_CONFIG_FILE") ?? home + "/.aws/config"
        let credentialsFile = AWSProfileFile(path: credentialsPath, isConfigFile: false)
        let configFile = AWSProfileFile(path: configPath, isConfigFile: true)
        func profileValue(_ key: String) -> String? {
            credentialsFile?.value(key, profile: profile) ?? configFile?.value(key, profile: profile)
        }

        let credentials: S3Configuration.Credentials
        if let key = setting("AWS_ACCESS_KEY_ID"), let secret = setting("AWS_SECRET_ACCESS_KEY") {
            credentials = S3Configuration.Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: setting("AWS_SESSION_TOKEN"))
        } else if let key = profileValue("aws_access_key_id"), let secret = profileValue("aws_secret_access_key") {
            credentials = S3Configuration.Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: profileValue("aws_session_token"))
        } else {
            let profileNote = setting("AWS_PROFILE") == nil ? "profile default" : "profile \(profile) (AWS_PROFILE)"
            throw S3Error(message: "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the \(profileNote) "
                          + "aws_access_key_id and aws_secret_access_key in \(credentialsPath) or \(configPath)")
        }
        let region = setting("AWS_REGION") ?? setting("AWS_DEFAULT_REGION") ?? configFile?.value("region", profile: profile) ?? "us-east-1"
        let custom = endpoint ?? setting("AWS_ENDPOINT_URL_S3") ?? setting("AWS_ENDPOINT_URL")
            ?? configFile?.value("endpoint_url", profile: profile)
        let endpointURL: URL
        if let custom {
            guard let url = URL(string: custom.hasSuffix("/") ? String(custom.dropLast()) : custom),
                  let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw S3Error(message: "the endpoint '\(custom)' is not an http:// or https:// URL")
            }
            endpointURL = url
        } else {
            guard let url = URL(string: "https://s3.\(region).amazonaws.com") else {
                throw S3Error(message: "the region '\(region)' gives no endpoint URL")
            }
            endpointURL = url
        }
        var configuration = S3Configuration(endpoint: endpointURL, region: region, credentials: credentials, usesPathStyle: custom != nil)
        if let value = setting("AWS_MAX_ATTEMPTS").flatMap(Int.init), value > 0 { configuration.attempts = value }
        return configuration
    }
}
