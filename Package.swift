// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "nowflow",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "NowData", targets: ["NowData"]),
        .library(name: "LocalInstance", targets: ["LocalInstance"]),
        .library(name: "NowFlow", targets: ["NowFlow"]),
        .executable(name: "nowflow", targets: ["nowflow"]),
    ],
    targets: [
        // System libraries from Debian's -dev packages; each folder holds a module map and a shim header.
        .systemLibrary(name: "CYAML", path: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CSQLite", path: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", path: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CCurl", path: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CEditLine", path: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CCrypto", path: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The package's JSON parser: simdjson (Debian's libsimdjson-dev), a C++ library, behind a small C interface
        // (CJSONTape) and a Swift one (SimdJSON). simdjson is linked by name rather than as a pkgConfig system
        // library with `providers`: its simdjson.pc passes -D flags, which SwiftPM rejects as prohibited on every
        // build; scripts/ensure-system-packages and .ci/run install libsimdjson-dev instead.
        .target(
            name: "CJSONTape", cxxSettings: [.define("SIMDJSON_THREADS_ENABLED", to: "1")],
            linkerSettings: [.linkedLibrary("simdjson")]),
        .target(name: "SimdJSON", dependencies: ["CJSONTape"]),
        // NowData's default HTTP(S) transport: libcurl's multi interface, behind a small Swift API (package access).
        .target(name: "CurlHTTP", dependencies: ["CCurl"]),
        .target(name: "NowData", dependencies: ["CurlHTTP", "SimdJSON", "CCrypto"]),
        .target(name: "LocalInstance", dependencies: ["NowData", "CSQLite", "CMicroHTTPD"]),
        .target(name: "NowFlow", dependencies: ["NowData", "CYAML"]),
        // The release build links the Swift runtime and Foundation statically, so that the dynamic loader binds
        // only the C libraries at each start (Benchmarks/README.md, validate). The modules are compiled against the
        // shared runtime, whose autolink entries do not name Foundation's own static libraries: they are listed.
        // Debug builds, and so the test bundle that links this target, keep the shared runtime.
        .executableTarget(
            name: "nowflow", dependencies: ["NowFlow", "LocalInstance", "NowData", "CEditLine"],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-lFoundationNetworking", "-l_CFURLSessionInterface", "-lFoundation",
                        "-lCoreFoundation", "-lFoundationInternationalization", "-l_FoundationICU",
                        "-lFoundationEssentials", "-l_FoundationCShims", "-l_FoundationCollections", "-lcurl",
                    ], .when(configuration: .release))
            ]),
        .executableTarget(name: "DecodeBenchmark", dependencies: ["NowData"], path: "Benchmarks/DecodeBenchmark"),

        .executableTarget(
            name: "InstanceBenchmark", dependencies: ["LocalInstance", "NowData", "CSQLite"],
            path: "Benchmarks/InstanceBenchmark"),
        .executableTarget(name: "PaginateBenchmark", dependencies: ["NowData"], path: "Benchmarks/PaginateBenchmark"),
        .executableTarget(
            name: "AttachmentBenchmark", dependencies: ["NowData"], path: "Benchmarks/AttachmentBenchmark"),
        .executableTarget(
            name: "RunnerBenchmark", dependencies: ["NowFlow", "LocalInstance", "NowData"],
            path: "Benchmarks/RunnerBenchmark"),

        .testTarget(name: "NowDataTests", dependencies: ["NowData", "CurlHTTP", "LocalInstance"]),
        // Helpers shared by the test targets (not part of any product).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "LocalInstanceTests", dependencies: ["LocalInstance", "NowData", "CSQLite", "TestSupport"]),
        .testTarget(name: "NowFlowTests", dependencies: ["NowFlow", "NowData", "LocalInstance"]),
        .testTarget(name: "nowflowTests", dependencies: ["nowflow", "LocalInstance", "NowData", "TestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)
