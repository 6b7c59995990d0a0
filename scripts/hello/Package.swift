// swift-tools-version: 6.0
// A bare Hummingbird 2 server for `make bench`: the yardstick swipes/s is measured against.
// Not part of the product. bench.sh copies the main Package.resolved here before building, so
// it resolves to the same Hummingbird (and NIO) versions as swipedeck, from the same mirror.
import PackageDescription

let package = Package(
    name: "hello",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(name: "hello", dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),
    ]
)
