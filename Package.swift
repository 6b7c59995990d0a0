// swift-tools-version: 6.0
import PackageDescription

// `make` builds with SWIPEDECK_WARNINGS_AS_ERRORS=1: a compiler warning in this package's own
// targets then fails the build (dependencies keep theirs), so the code stays at zero warnings.
// A plain `swift build` prints warnings without failing; switching between the two recompiles
// this package's targets only.
let ownCode: [SwiftSetting] =
    Context.environment["SWIPEDECK_WARNINGS_AS_ERRORS"] == "1" ? [.unsafeFlags(["-warnings-as-errors"])] : []

let package = Package(
    name: "swipedeck",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "swipedeck", targets: ["swipedeck"]),
        .library(name: "SwipePhysics", targets: ["SwipePhysics"]),
        .library(name: "SwipedeckServer", targets: ["SwipedeckServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        // Already resolved through Hummingbird; named so the live results stream can end on graceful shutdown.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // gzip (zlib) for static files at start-up and for large HTML and JSON answers.
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        // PostgreSQL, the second storage engine (several servers on one database).
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Already resolved through postgres-nio; named for the TLS context of the first connection.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // GET /metrics: the metrics API (already resolved through Hummingbird) and its Prometheus exporter.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Webhook deliveries: a maintained HTTP client (timeouts, TLS, no redirects) rather than a hand-written one.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // Pure model: Foundation only. The server and the browser (Public/js/physics.js) mirror it.
        .target(name: "SwipePhysics", swiftSettings: ownCode),
        .target(
            name: "SwipedeckServer",
            dependencies: [
                "SwipePhysics",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            // The sample deck is read from the checkout at run time (resourceRoot), not bundled.
            exclude: ["Resources"],
            swiftSettings: ownCode
        ),
        .executableTarget(
            name: "swipedeck",
            dependencies: [
                "SwipedeckServer",
                "SwipePhysics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: ownCode
        ),
        // Micro-benchmark of classify + validate (prints figures; run in release by `make bench-physics`).
        .executableTarget(name: "PhysicsBench", dependencies: ["SwipePhysics"], swiftSettings: ownCode),
        // Simulation of stop rules and adaptive dealing with known truth (prints figures; `make bench-decide`).
        .executableTarget(
            name: "DecideBench", dependencies: ["SwipedeckServer", "SwipePhysics"], swiftSettings: ownCode),
        // What both test targets share: running blocking work off the concurrency pool, child
        // processes awaited without blocking it, and the watchdog that reports a stalled pool.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: ownCode),
        .testTarget(
            name: "SwipePhysicsTests", dependencies: ["SwipePhysics", "TestSupport"], swiftSettings: ownCode),
        .testTarget(
            name: "SwipedeckServerTests",
            dependencies: [
                "SwipedeckServer",
                "SwipePhysics",
                "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: ownCode
        ),
    ]
)
