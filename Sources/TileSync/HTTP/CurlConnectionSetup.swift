#if canImport(CTileSyncCurl)
/// What every transfer of one `CurlLoop` sets on its handle, worked out once: whether it waits to
/// share an HTTP/2 connection, and the certificate authorities to trust.
struct CurlConnectionSetup: Sendable {
    let waitsToShare: Bool
    let certificateFile: String?
    let certificateFolder: String?
}
#endif
