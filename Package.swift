// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Test modules whose own code is light (the library and the tool do the work), compiled
/// without optimization in every configuration: the optimized test build then compiles them in a
/// fraction of the time, beside TileSyncOracleTests, the one test module it optimizes.
let unoptimizedTests: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "TileSync",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TileSync", targets: ["TileSync"]),
        .executable(name: "tilesync", targets: ["tilesync"]),
    ],
    // The C libraries the iOS SDK lacks, each a trait on by default. Building without them
    // (`swift build --disable-default-traits --product TileSync`, part of Scripts/test) compiles
    // the library as an iOS app gets it, so a missing `#if canImport` guard fails on Linux.
    traits: [
        .trait(name: "Tar", description: "tar archives through libarchive"),
        .trait(name: "Zstd", description: "zstd-compressed PMTiles directories and tiles"),
        .trait(name: "Brotli", description: "brotli-compressed PMTiles directories and tiles"),
        .trait(name: "LibCrypto", description: "MD5 and SHA-256 through OpenSSL's libcrypto on Linux"),
        .trait(name: "RasterCodecs", description: "raster tiles re-encoded through libwebp, libpng and libjpeg-turbo"),
        .default(enabledTraits: ["Tar", "Zstd", "Brotli", "LibCrypto", "RasterCodecs"]),
    ],
    targets: [
        .systemLibrary(
            name: "CTileSyncSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .systemLibrary(
            name: "CTileSyncArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        .systemLibrary(
            name: "CTileSyncCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CTileSyncZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CTileSyncZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        .systemLibrary(
            name: "CTileSyncBrotli",
            pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]
        ),
        // Raster re-encoding (`--tile-format`): libwebp is called from Swift; libpng and libjpeg,
        // which report errors through longjmp, through the small C target CTileSyncRasterShims.
        .systemLibrary(
            name: "CTileSyncWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .systemLibrary(
            name: "CTileSyncPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CTileSyncJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]
        ),
        .target(
            name: "CTileSyncRasterShims",
            dependencies: ["CTileSyncPNG", "CTileSyncJPEG"]
        ),
        // Linux's openat2 (no C library wrapper in Debian 12): a tile of a folder opened in one
        // call that may not leave the folder or pass a link.
        .target(name: "CTileSyncFileShims"),
        // libcurl's multi interface: the HTTP client on Linux (tile servers, S3, remote PMTiles),
        // where URLSession costs about 0.5 ms of CPU per request; Apple platforms use URLSession.
        .systemLibrary(
            name: "CTileSyncCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // GNU libmicrohttpd: the HTTP server of `tilesync serve`, linked by the tool only.
        .systemLibrary(
            name: "CTileSyncMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .target(
            name: "TileSync",
            dependencies: [
                "CTileSyncSQLite",
                // The iOS SDK has no libarchive headers: tar support is for Linux and macOS.
                .target(name: "CTileSyncArchive", condition: .when(platforms: [.linux, .macOS], traits: ["Tar"])),
                .target(name: "CTileSyncCrypto", condition: .when(platforms: [.linux], traits: ["LibCrypto"])),
                .target(name: "CTileSyncCurl", condition: .when(platforms: [.linux])),
                .target(name: "CTileSyncFileShims", condition: .when(platforms: [.linux])),
                "CTileSyncZlib",
                // Apple SDKs ship zlib but neither zstd nor brotli: PMTiles directories compressed
                // with those are read on Linux only.
                .target(name: "CTileSyncZstd", condition: .when(platforms: [.linux], traits: ["Zstd"])),
                .target(name: "CTileSyncBrotli", condition: .when(platforms: [.linux], traits: ["Brotli"])),
                // Re-encoding raster tiles is for Linux and macOS (Homebrew's libraries); an iOS
                // build refuses --tile-format with a clear error.
                .target(name: "CTileSyncWebP", condition: .when(platforms: [.linux, .macOS], traits: ["RasterCodecs"])),
                .target(name: "CTileSyncRasterShims", condition: .when(platforms: [.linux, .macOS], traits: ["RasterCodecs"])),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "tilesync",
            dependencies: ["TileSync", "CTileSyncMicroHTTPD"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TileSyncMapKitSample",
            dependencies: ["TileSync"],
            path: "Samples/MapKit",
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "tilesync-benchmark",
            dependencies: ["TileSync"],
            path: "Benchmarks/tilesync-benchmark",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "tilesync-fuzz",
            dependencies: ["TileSync"],
            path: "Fuzz/tilesync-fuzz",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TileSyncTests",
            dependencies: ["TileSync", "TileSyncMapKitSample"],
            swiftSettings: strictSettings + unoptimizedTests
        ),
        // The unit tests whose own oracles do heavy work (covers by clipping a million
        // vertices, PSNR and pixel comparisons of every tile): the one test module the
        // optimized test build optimizes.
        .testTarget(
            name: "TileSyncOracleTests",
            dependencies: ["TileSync"],
            swiftSettings: strictSettings
        ),
        // The stores and what moves tiles between them (sync, merge, patch, archive, interop,
        // the async forms), apart from TileSyncTests so that the two compile side by side; both
        // hold TileSyncTests/Helpers (a link).
        .testTarget(
            name: "TileSyncStoreTests",
            dependencies: ["TileSync"],
            swiftSettings: strictSettings + unoptimizedTests
        ),
        .testTarget(
            name: "tilesyncTests",
            dependencies: ["tilesync", "tilesync-fuzz", "TileSync"],
            swiftSettings: strictSettings + unoptimizedTests
        ),
    ],
    swiftLanguageModes: [.v6]
)
