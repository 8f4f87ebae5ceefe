import Foundation

/// The spatial reference systems a GeoPackage tile table may use, and the one TileSync reads and
/// writes: EPSG:3857 (Web Mercator), whose quad tree is what z/x/y means.
enum GeoPackageSpatialReference {
    /// The Web Mercator sphere's radius (WGS 84's semi-major axis), in metres.
    static let radius = 6_378_137.0
    /// Half the width of the Web Mercator world, in metres (pi times the radius).
    static let halfWorld = 20_037_508.342789244
    /// The width of the Web Mercator world, in metres.
    static let worldWidth = 2 * halfWorld

    /// The SRS id written for EPSG:3857.
    static let webMercatorID = 3857

    /// True for an SRS row that names Web Mercator: EPSG 3857 (and its retired codes 3785 and
    /// 900913) or ESRI 102100 / 102113.
    static func isWebMercator(organization: String, code: Int) -> Bool {
        switch organization.uppercased() {
        case "EPSG": [3857, 3785, 900_913].contains(code)
        case "ESRI": [102_100, 102_113].contains(code)
        default: false
        }
    }

    /// Metres of EPSG:3857 for a longitude and latitude in degrees (latitude clamped to the square world).
    static func metres(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
        let clamped = max(-WebMercator.maxLatitude, min(WebMercator.maxLatitude, latitude))
        let y = log(tan(Double.pi / 4 + clamped * Double.pi / 360)) * radius
        return (longitude * halfWorld / 180, y)
    }

    /// Longitude and latitude in degrees of a point in metres of EPSG:3857.
    static func degrees(x: Double, y: Double) -> (longitude: Double, latitude: Double) {
        (x / halfWorld * 180, (2 * atan(exp(y / radius)) - Double.pi / 2) * 180 / Double.pi)
    }

    /// The rows the spec requires in `gpkg_spatial_ref_sys` (WGS 84 and the two undefined
    /// systems) and the Web Mercator row tile tables refer to: (name, id, organization, code, definition, description).
    static let requiredRows: [(name: String, id: Int, organization: String, code: Int, definition: String, description: String)] = [
        ("Undefined cartesian SRS", -1, "NONE", -1, "undefined", "undefined cartesian coordinate reference system"),
        ("Undefined geographic SRS", 0, "NONE", 0, "undefined", "undefined geographic coordinate reference system"),
        ("WGS 84 geodetic", 4326, "EPSG", 4326, wgs84Definition, "longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid"),
        ("WGS 84 / Pseudo-Mercator", webMercatorID, "EPSG", 3857, webMercatorDefinition, "Web Mercator, the web quad tree's projection"),
    ]

    private static let wgs84Datum = """
        DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],\
        PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]]
        """

    static let wgs84Definition = """
        GEOGCS["WGS 84",\(wgs84Datum),AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]
        """

    static let webMercatorDefinition = """
        PROJCS["WGS 84 / Pseudo-Mercator",GEOGCS["WGS 84",\(wgs84Datum),AUTHORITY["EPSG","4326"]],\
        PROJECTION["Mercator_1SP"],PARAMETER["central_meridian",0],PARAMETER["scale_factor",1],\
        PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1,AUTHORITY["EPSG","9001"]],\
        AXIS["Easting",EAST],AXIS["Northing",NORTH],\
        EXTENSION["PROJ4","+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs"],\
        AUTHORITY["EPSG","3857"]]
        """
}
