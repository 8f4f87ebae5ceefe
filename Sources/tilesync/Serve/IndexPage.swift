import TileSync

/// The page at `/`: one row per store with its kind, tiles, zooms and format, and links to its
/// preview, TileJSON and (for a local PMTiles) the archive.
enum IndexPage {
    static func render(stores: [ServedStore]) -> String {
        var rows = ""
        for store in stores {
            let version = store.current()
            let name = HTMLText.escape(store.name)
            let tiles: String
            if let summary = version.summary {
                tiles = String(summary.zooms.reduce(0) { $0 + $1.tileCount })
            } else if version.isRemote {
                tiles = "not counted (remote)"
            } else {
                tiles = version.summaryFailure == nil ? "counting…" : "not counted"
            }
            let zooms = version.zooms
            var links = "<a href=\"/\(name)/\">preview</a> · <a href=\"/\(name).json\">TileJSON</a>"
            if version.archivePath != nil { links += " · <a href=\"/\(name).pmtiles\">archive</a>" }
            rows += """
                <tr><td><a href="/\(name)/">\(name)</a></td><td>\(HTMLText.escape(version.kindName))</td>\
                <td class="number">\(tiles)</td><td>\(zooms.lowerBound)–\(zooms.upperBound)</td>\
                <td>\(version.format.fileExtension)</td><td>\(HTMLText.escape(version.metadata["name"] ?? ""))</td><td>\(links)</td></tr>

                """
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>tilesync serve</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; } th, td { padding: 4px 12px; border-bottom: 1px solid #ddd; text-align: left; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; }
            </style></head>
            <body><h1>Tile stores</h1>
            <table><thead><tr><th>Name</th><th>Kind</th><th>Tiles</th><th>Zooms</th><th>Format</th><th>Title</th><th></th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            <p>Tiles at <code>/NAME/{z}/{x}/{y}.EXT</code> (XYZ rows), TileJSON at <code>/NAME.json</code>.</p>
            </body></html>

            """
    }
}
