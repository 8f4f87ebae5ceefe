// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "TileSync",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TileSync", targets: ["TileSync"]),
        .executable(name: "tilesync", targets: ["tilesync"]),
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
        .target(
            name: "TileSync",
            dependencies: [
                "CTileSyncSQLite",
                // The iOS SDK has no libarchive headers: tar support is for Linux and macOS.
                .target(name: "CTileSyncArchive", condition: .when(platforms: [.linux, .macOS])),
                .target(name: "CTileSyncCrypto", condition: .when(platforms: [.linux])),
                "CTileSyncZlib",
                // Apple SDKs ship zlib but neither zstd nor brotli: PMTiles directories compressed
                // with those are read on Linux only.
                .target(name: "CTileSyncZstd", condition: .when(platforms: [.linux])),
                .target(name: "CTileSyncBrotli", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "tilesync",
            dependencies: ["TileSync"],
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
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "tilesyncTests",
            dependencies: ["tilesync", "tilesync-fuzz", "TileSync"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
