/// The page at `/NAME/`: a MapLibre GL JS map of the store fitted to its bounds. Raster tiles
/// are one raster layer; vector tiles are drawn with a style made from the TileJSON's
/// `vector_layers` (a colour per layer: fills, lines and points). A switch shows tile
/// boundaries, and a click lists the properties of the features under it. The page marks
/// itself `data-idle="true"` on `<body>` when the map has drawn everything (for tests and
/// scripts), and keeps the last map error in `data-error`.
enum PreviewPage {
    static func render(store: ServedStore, settings: ServeSettings) -> String {
        let name = HTMLText.escape(store.name)
        let library = settings.assetsFolder == nil ? ServeSettings.mapLibreCDN : "/_assets"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(name) · tilesync serve</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <link rel="stylesheet" href="\(library)/maplibre-gl.css">
            <script src="\(library)/maplibre-gl.js"></script>
            <style>
            html, body, #map { margin: 0; height: 100%; }
            body { font: 13px/1.4 system-ui, sans-serif; }
            #panel { position: absolute; top: 8px; left: 8px; z-index: 2; background: rgba(255,255,255,.92); padding: 6px 10px;
                     border-radius: 4px; box-shadow: 0 1px 4px rgba(0,0,0,.3); max-width: 40%; max-height: 80%; overflow: auto; }
            #features { white-space: pre-wrap; font: 12px/1.3 ui-monospace, monospace; margin: 4px 0 0; }
            #legend span { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
            </style></head>
            <body>
            <div id="panel"><a href="/">stores</a> · <b>\(name)</b> <span id="where"></span><br>
            <label><input type="checkbox" id="boundaries"> tile boundaries</label>
            <div id="legend"></div><pre id="features"></pre></div>
            <div id="map"></div>
            <script>
            const storeName = "\(name)";
            \(script)
            </script>
            </body></html>

            """
    }

    /// The page's script: builds the map from the store's TileJSON (`storeName` is set before it).
    private static let script = """
        (async () => {
          const tilejson = await (await fetch("/" + storeName + ".json")).json();
          const vector = tilejson.format === "pbf";
          const source = { type: vector ? "vector" : "raster", tiles: tilejson.tiles, minzoom: tilejson.minzoom,
                           maxzoom: tilejson.maxzoom, bounds: tilejson.bounds, attribution: tilejson.attribution || "" };
          if (!vector) source.tileSize = 256;
          const layers = [{ id: "background", type: "background", paint: { "background-color": vector ? "#f4f3ef" : "#e8e8e8" } }];
          const legend = document.getElementById("legend");
          if (vector) {
            (tilejson.vector_layers || []).forEach((layer, index) => {
              const colour = `hsl(${(index * 137.5) % 360}, 65%, 42%)`;
              const id = String(layer.id);
              layers.push({ id: id + " fill", type: "fill", source: "tiles", "source-layer": id,
                            filter: ["==", ["geometry-type"], "Polygon"], paint: { "fill-color": colour, "fill-opacity": 0.2 } });
              layers.push({ id: id + " line", type: "line", source: "tiles", "source-layer": id,
                            filter: ["in", ["geometry-type"], ["literal", ["LineString", "Polygon"]]],
                            paint: { "line-color": colour, "line-width": 1.2 } });
              layers.push({ id: id + " point", type: "circle", source: "tiles", "source-layer": id,
                            filter: ["==", ["geometry-type"], "Point"],
                            paint: { "circle-color": colour, "circle-radius": 4, "circle-stroke-color": "#fff", "circle-stroke-width": 1 } });
              const item = document.createElement("div");
              const swatch = document.createElement("span");
              swatch.style.background = colour;
              item.append(swatch, id);
              legend.append(item);
            });
            if (!(tilejson.vector_layers || []).length) legend.textContent = "The metadata declares no vector_layers: nothing to draw.";
          } else if (tilejson.format === "mlt") {
            legend.textContent = "MapLibre Tiles (MLT) are served as they are; this preview draws Mapbox Vector Tiles and images only.";
          } else {
            layers.push({ id: "tiles", type: "raster", source: "tiles" });
          }
          const [west, south, east, north] = tilejson.bounds;
          const map = new maplibregl.Map({ container: "map", style: { version: 8, sources: { tiles: source }, layers },
                                           bounds: [[west, south], [east, north]], fitBoundsOptions: { padding: 20 },
                                           maxZoom: Math.max(tilejson.maxzoom + 2, 1), attributionControl: { compact: true } });
          window.previewMap = map;
          map.addControl(new maplibregl.NavigationControl());
          const where = document.getElementById("where");
          const show = () => { const c = map.getCenter(); where.textContent = `z ${map.getZoom().toFixed(1)} · ${c.lng.toFixed(4)}, ${c.lat.toFixed(4)}`; };
          map.on("move", show);
          show();
          document.getElementById("boundaries").addEventListener("change", (event) => { map.showTileBoundaries = event.target.checked; });
          map.on("click", (event) => {
            const found = map.queryRenderedFeatures(event.point).filter((feature) => feature.layer.id !== "background");
            document.getElementById("features").textContent = found.length
              ? found.slice(0, 20).map((feature) => (feature.sourceLayer || feature.layer.id) + " " + JSON.stringify(feature.properties, null, 1)).join("\\n")
              : (vector ? "no feature here" : "");
          });
          map.on("error", (event) => { document.body.dataset.error = String(event.error && event.error.message || event.error); });
          map.on("idle", () => { document.body.dataset.idle = "true"; });
        })().catch((error) => { document.body.dataset.error = String(error); });
        """
}
