/// How `tilesync serve` answers, from its options.
struct ServeSettings: Sendable {
    /// `Access-Control-Allow-Origin` on every answer; nil sends no CORS headers.
    var corsOrigin: String? = "*"
    /// The base of the tile URLs in TileJSON (`https://tiles.example.com`); nil takes the
    /// request's `Host`.
    var publicURL: String?
    /// `Cache-Control` of tiles and TileJSON.
    var cacheControl = "no-cache"
    /// The status of a tile the store does not have: 404, or 204 with `--empty-204`.
    var missingTileStatus = 404
    /// A folder holding `maplibre-gl.js` and `maplibre-gl.css`, served at `/_assets/`; nil loads
    /// MapLibre GL JS from the CDN.
    var assetsFolder: String?
    /// Where the preview loads MapLibre GL JS from without `--assets`.
    static let mapLibreCDN = "https://unpkg.com/maplibre-gl@5.3.0/dist"
}
