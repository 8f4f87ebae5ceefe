/// `cacert`: A PEM file of certificate authorities a tile server's HTTPS certificate may chain to.
enum TileServerCertificatesOption: TileStoreOptions.Key {
    public typealias Value = String
    public static let name = "cacert"
}

extension TileStoreOptions {
    /// A PEM file of certificate authorities to trust for a tile server over HTTPS, besides the
    /// system's (a private CA). Without it, `CURL_CA_BUNDLE` or `SSL_CERT_FILE` when set.
    /// (`TileServerCertificatesOption`).
    public var tileServerCertificates: String? {
        get { self[TileServerCertificatesOption.self] }
        set { self[TileServerCertificatesOption.self] = newValue }
    }
}
