// swift-tools-version:6.0
// The fuzz targets (Fuzz/README.md): one executable per target, built from the package's own modules (the root
// package, by path) with libFuzzer and AddressSanitizer by Fuzz/run.sh. The targets reach the modules' internals
// through `@testable import` (the build passes -enable-testing).
import Foundation
import PackageDescription

/// The root package, by path; SwiftPM names a path dependency after its directory (the checkout's, whatever it is).
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let nowflow = root.lastPathComponent

/// A fuzz target `Fuzz<name>`, its entry in Sources/Fuzz<name>.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: "Fuzz\(name)", dependencies: ["FuzzSupport"] + dependencies)
}

let package = Package(
    name: "nowflow-fuzz",
    dependencies: [.package(path: root.path)],
    targets: [
        // libFuzzer's driver, called from each target's main.
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        // The local instance the request targets answer from.
        .target(
            name: "FuzzInstance",
            dependencies: [
                "FuzzSupport", .product(name: "LocalInstance", package: nowflow),
                .product(name: "NowData", package: nowflow),
            ]),
        fuzzTarget("YAML", [.product(name: "NowFlow", package: nowflow)]),
        fuzzTarget(
            "Expression", [.product(name: "NowFlow", package: nowflow), .product(name: "NowData", package: nowflow)]),
        fuzzTarget("Job", [.product(name: "NowFlow", package: nowflow)]),
        fuzzTarget("ShortForm", [.product(name: "NowFlow", package: nowflow)]),
        fuzzTarget("Decode", [.product(name: "NowData", package: nowflow)]),
        fuzzTarget("Query", ["FuzzInstance", .product(name: "NowData", package: nowflow)]),
        fuzzTarget("Request", ["FuzzInstance"]),
        fuzzTarget(
            "Multipart",
            ["FuzzInstance", .product(name: "LocalInstance", package: nowflow), .product(name: "NowData", package: nowflow)]),
        fuzzTarget("Batch", ["FuzzInstance", .product(name: "NowData", package: nowflow)]),
        fuzzTarget(
            "Form",
            ["FuzzInstance", .product(name: "LocalInstance", package: nowflow), .product(name: "NowData", package: nowflow)]),
        fuzzTarget(
            "Dates",
            [
                "FuzzInstance", .product(name: "LocalInstance", package: nowflow),
                .product(name: "NowData", package: nowflow), .product(name: "NowFlow", package: nowflow),
            ]),
    ]
)
