extension S3Configuration {
    /// An AWS access key pair, with the session token of temporary credentials. Its description
    /// shows the key ID only, so printing it never leaks the secret.
    public struct Credentials: Sendable, Equatable, CustomStringConvertible {
        /// The access key ID (`AKIA...`), which is not secret.
        public let accessKeyID: String
        /// The secret access key.
        public let secretAccessKey: String
        /// The session token of temporary credentials, else nil.
        public let sessionToken: String?

        /// Credentials; `sessionToken` for temporary ones.
        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }

        public var description: String { "access key \(accessKeyID)" }
    }
}
