/// `s3-configuration`: a whole `S3Configuration` for an `s3://` store, given by a program (an
/// app with its own credentials) instead of the environment; it wins over `endpoint` and
/// `transfers`. Not a command-line option.
enum S3ConfigurationOption: TileStoreOptions.Key {
    public typealias Value = S3Configuration
    public static let name = "s3-configuration"
}

extension TileStoreOptions {
    /// The configuration of an `s3://` store given in code (`S3ConfigurationOption`).
    public var s3Configuration: S3Configuration? {
        get { self[S3ConfigurationOption.self] }
        set { self[S3ConfigurationOption.self] = newValue }
    }
}
