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
        // libmicrohttpd's, libcurl's and libcrypto's headers only: the libraries are linked, or in a Linux release
        // build loaded on first use, through CLazyLibraries. Their module maps name no library and they have no
        // pkgConfig (whose -l flags SwiftPM would add to every link); scripts/ensure-system-packages and .ci/run
        // install libmicrohttpd-dev, libcurl4-openssl-dev and libssl-dev.
        .systemLibrary(name: "CMicroHTTPD", path: "CMicroHTTPD"),
        .systemLibrary(name: "CCurl", path: "CCurl"),
        .systemLibrary(name: "CCrypto", path: "CCrypto"),
        // GnuTLS's headers, for the client certificate of a TLS connection libmicrohttpd accepted (libgnutls28-dev,
        // which libmicrohttpd-dev depends on).
        .systemLibrary(name: "CGnuTLS", path: "CGnuTLS"),
        // glibc's mallopt, which the Glibc module lacks (part of the C library: nothing to link).
        .systemLibrary(name: "CMalloc", path: "CMalloc"),
        // libcurl, libmicrohttpd and libcrypto bring 31 of the 44 shared libraries the dynamic loader would map and
        // bind at every start of nowflow (GnuTLS, Kerberos, LDAP...), for commands that need none of them
        // (Benchmarks/README.md, validate). A Linux release build defines the functions the package (and the
        // static FoundationNetworking) calls here, each opening its library on first use; debug builds (and so the
        // tests) and other platforms link the three libraries.
        .target(
            name: "CLazyLibraries",
            cSettings: [.define("CLAZY_LOAD_ON_FIRST_USE", .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [
                .linkedLibrary("curl", .when(configuration: .debug)),
                .linkedLibrary("microhttpd", .when(configuration: .debug)),
                .linkedLibrary("crypto", .when(configuration: .debug)),
                .linkedLibrary("gnutls", .when(configuration: .debug)),
                .linkedLibrary("curl", .when(platforms: [.macOS], configuration: .release)),
                .linkedLibrary("microhttpd", .when(platforms: [.macOS], configuration: .release)),
                .linkedLibrary("crypto", .when(platforms: [.macOS], configuration: .release)),
                .linkedLibrary("gnutls", .when(platforms: [.macOS], configuration: .release)),
            ]),
        .systemLibrary(name: "CEditLine", path: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),

        // The package's JSON parser: simdjson (Debian's libsimdjson-dev), a C++ library, behind a small C interface
        // (CJSONTape) and a Swift one (SimdJSON). simdjson is linked by name rather than as a pkgConfig system
        // library with `providers`: its simdjson.pc passes -D flags, which SwiftPM rejects as prohibited on every
        // build; scripts/ensure-system-packages and .ci/run install libsimdjson-dev instead.
        .target(
            name: "CJSONTape", cxxSettings: [.define("SIMDJSON_THREADS_ENABLED", to: "1")],
            linkerSettings: [.linkedLibrary("simdjson")]),
        .target(name: "SimdJSON", dependencies: ["CJSONTape"]),
        // NowData's default HTTP(S) transport: libcurl's multi interface, behind a small Swift API (package access).
        .target(name: "CurlHTTP", dependencies: ["CCurl", "CLazyLibraries"]),
        .target(name: "NowData", dependencies: ["CurlHTTP", "SimdJSON", "CCrypto", "CLazyLibraries"]),
        .target(
            name: "LocalInstance",
            dependencies: ["NowData", "CSQLite", "CMicroHTTPD", "CCrypto", "CGnuTLS", "CLazyLibraries"]),
        .target(name: "NowFlow", dependencies: ["NowData", "CYAML"]),
        // The release build links the Swift runtime and Foundation statically, so that the dynamic loader binds
        // only the C libraries at each start (Benchmarks/README.md, validate). The modules are compiled against the
        // shared runtime, whose autolink entries do not name Foundation's own static libraries: they are listed.
        // Debug builds, and so the test bundle that links this target, keep the shared runtime.
        .executableTarget(
            name: "nowflow", dependencies: ["NowFlow", "LocalInstance", "NowData", "CEditLine", "CMalloc"],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-lFoundationNetworking", "-l_CFURLSessionInterface", "-lFoundation",
                        "-lCoreFoundation", "-lFoundationInternationalization", "-l_FoundationICU",
                        "-lFoundationEssentials", "-l_FoundationCShims", "-l_FoundationCollections",
                    ], .when(configuration: .release))
            ]),
        .executableTarget(
            name: "DecodeBenchmark", dependencies: ["NowData", "SimdJSON"], path: "Benchmarks/DecodeBenchmark"),

        .executableTarget(
            name: "InstanceBenchmark", dependencies: ["LocalInstance", "NowData", "CSQLite"],
            path: "Benchmarks/InstanceBenchmark"),
        .executableTarget(name: "PaginateBenchmark", dependencies: ["NowData"], path: "Benchmarks/PaginateBenchmark"),
        .executableTarget(
            name: "AttachmentBenchmark", dependencies: ["NowData"], path: "Benchmarks/AttachmentBenchmark"),
        .executableTarget(
            name: "RunnerBenchmark", dependencies: ["NowFlow", "LocalInstance", "NowData"],
            path: "Benchmarks/RunnerBenchmark"),

        .testTarget(name: "NowDataTests", dependencies: ["NowData", "CurlHTTP", "LocalInstance", "TestSupport"]),
        // Helpers shared by the test targets (not part of any product).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "LocalInstanceTests", dependencies: ["LocalInstance", "NowData", "CSQLite", "TestSupport"]),
        .testTarget(name: "NowFlowTests", dependencies: ["NowFlow", "NowData", "LocalInstance", "TestSupport"]),
        .testTarget(name: "nowflowTests", dependencies: ["nowflow", "LocalInstance", "NowData", "TestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)
