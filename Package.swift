// swift-tools-version:6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Where Debian's libxmlsec1-dev keeps its headers, for the targets that import CXMLSec. Not through pkg-config:
/// xmlsec1-openssl.pc also passes -D flags, which SwiftPM drops from a system library with a warning on every build
/// (flint_xmlsec.h sets them instead); libxml2's pkg-config (CXMLSec's) has none. No product exposes these targets.
let xmlsecSettings: [SwiftSetting] = strictSettings + [.unsafeFlags(["-Xcc", "-I/usr/include/xmlsec1"])]

let package = Package(
    name: "flint",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "flint", targets: ["flint"]),
        .library(name: "FlintCore", targets: ["FlintCore"]),
        .library(name: "FlintTexts", targets: ["FlintTexts"]),
        .library(name: "FlintStore", targets: ["FlintStore"]),
        .library(name: "FlintServer", targets: ["FlintServer"]),
        .library(name: "FlintConsole", targets: ["FlintConsole"]),
        .library(name: "FlintSMTP", targets: ["FlintSMTP"]),
        .library(name: "FlintAuth", targets: ["FlintAuth"]),
        // FirebaseAuth's and FirebaseCore's module names over FlintAuth, for apps that keep their Firebase imports.
        .library(name: "FirebaseAuth", targets: ["FirebaseAuth"]),
        .library(name: "FirebaseCore", targets: ["FirebaseCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "4.5.2"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Tests only: a local HTTP/2 + TLS stand-in for Apple's APNs provider API.
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // `/metrics`: the swift-metrics API over a Prometheus registry, exposed in the text format.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The web console's server-rendered pages (`/console`): logic-less templates that escape what they insert.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // The CLI's `FLINT_*` environment variables, through the provider Hummingbird's configuration support uses.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.0.2", traits: []),
        // `swift package generate-documentation --target FlintAuth` (and preview-documentation): FlintAuth's DocC
        // catalog, as any Swift package builds it; a plugin only, nothing of it is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        // Tracing (`flint serve --otlp-endpoint`): the swift-distributed-tracing API in the server (Hummingbird and
        // AsyncHTTPClient already depend on it), and swift-otel's tracer with its OTLP/HTTP exporter in the CLI only.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // RS256 signing with the system's OpenSSL on Linux (twice BoringSSL's speed on AVX-512 IFMA CPUs).
        .target(
            name: "CFlintOpenSSL",
            linkerSettings: [.linkedLibrary("crypto", .when(platforms: [.linux]))]
        ),
        // Localized texts in 12 locales, no Flint dependency: SMS and email templates, the email action pages, the web challenge page.
        .target(
            name: "FlintTexts",
            // SHA-256 of the challenge page's inline script, for its Content-Security-Policy.
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        // Rules with no I/O: phone numbers, codes, tokens, errors, project config.
        .target(
            name: "FlintCore",
            dependencies: [
                "FlintTexts",
                "CFlintOpenSSL",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                // DER parsing of WebAuthn attestation certificates (`x5c`).
                .product(name: "SwiftASN1", package: "swift-asn1"),
                // AuthError's statuses.
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        // The system's libsqlite3 (Debian: libsqlite3-dev), used synchronously by the embedded store.
        .systemLibrary(name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The one storage protocol and its SQL implementations.
        .target(
            name: "FlintStore",
            dependencies: [
                "FlintCore",
                "FlintTexts",
                "CSQLite3",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The HTTP surface (Hummingbird 2), one folder per flow.
        .target(
            name: "FlintServer",
            dependencies: [
                "FlintCore",
                "FlintTexts",
                "FlintStore",
                "FlintSMTP",
                // SAML sign-in (Federated/): AuthnRequests and verified SAMLResponses.
                "FlintSAML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // `flint serve`'s service group drains at SIGTERM and SIGINT (Health/NodeLauncher.swift).
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                // Outbound HTTPS to delivery providers (SMS) and HTTP/2 to Apple's APNs provider API (app verification's
                // silent pushes); Hummingbird only serves.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // `flint admin-bridge`'s TLS settings for the upstream Flint (a private CA's roots).
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // Spans of requests, store transactions and outgoing calls, when `flint serve` hands it a tracer.
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        // The web console (`/console`): operators' sign-in, sessions and server-rendered pages over the server's flows.
        // FlintServer does not know it: the CLI hands it to the server as a module.
        .target(
            name: "FlintConsole",
            dependencies: [
                "FlintServer",
                "FlintCore",
                "FlintTexts",
                "FlintStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Mustache", package: "swift-mustache"),
                // The log line of an error page that reveals nothing.
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Mail delivery through an SMTP server (SwiftNIO; STARTTLS or implicit TLS, AUTH, retries) and MIME rendering.
        .target(
            name: "FlintSMTP",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // libxml2 and the XML Security Library with its OpenSSL engine (Debian: libxmlsec1-dev, libxml2-dev), and zlib:
        // exclusive canonicalization and XML-DSig for SAML; a module map over one header of static inline shims.
        .systemLibrary(
            name: "CXMLSec", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxmlsec1-dev", "libxml2-dev", "zlib1g-dev"]), .brew(["libxmlsec1"])]),
        // SAML 2.0 for an SP: AuthnRequests (HTTP-Redirect binding) and verified SAMLResponses (POST binding).
        .target(
            name: "FlintSAML",
            dependencies: [
                "CXMLSec",
                // RSA-SHA256 signatures of HTTP-Redirect requests.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: xmlsecSettings
        ),
        // The client SDK: FirebaseAuth's API over URLSession, for Apple platforms and Linux. No dependencies.
        .target(name: "FlintAuth", swiftSettings: strictSettings),
        // `import FirebaseAuth`: all of FlintAuth, re-exported.
        .target(name: "FirebaseAuth", dependencies: ["FlintAuth"], swiftSettings: strictSettings),
        // `import FirebaseCore`: FlintAuth's app and options types only (FirebaseApp, FirebaseOptions), re-exported.
        .target(name: "FirebaseCore", dependencies: ["FlintAuth"], swiftSettings: strictSettings),
        .executableTarget(
            name: "flint",
            dependencies: [
                "FlintCore",
                "FlintStore",
                "FlintServer",
                "FlintConsole",
                "FlintSMTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
                // The OpenTelemetry tracer and its OTLP/HTTP exporter (`--otlp-endpoint`).
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // A terminal walk through phone and email-link sign-in with FlintAuth against a running `flint serve`.
        .executableTarget(
            name: "flint-auth-example",
            dependencies: ["FlintAuth"],
            path: "Examples/FlintAuthExample",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "flint-bench",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Benchmarks/FlintBench",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FlintCoreTests",
            dependencies: ["FlintCore", "FlintTexts", "FlintTesting", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings),
        .testTarget(name: "FlintTextsTests", dependencies: ["FlintTexts"], swiftSettings: strictSettings),
        // Signs responses at test time with libxmlsec itself (CXMLSec), keys and certificates from swift-certificates:
        // FlintSAML's tests and the server's SAML sign-in suite share it.
        .target(
            name: "FlintSAMLTestSupport",
            dependencies: [
                "FlintSAML", "CXMLSec", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"), .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/FlintSAMLTestSupport", swiftSettings: xmlsecSettings),
        .testTarget(
            name: "FlintSAMLTests",
            dependencies: [
                "FlintSAML", "FlintSAMLTestSupport", "CXMLSec", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            // The pysaml2 interop fixture, read from the source tree.
            exclude: ["Fixtures"],
            swiftSettings: xmlsecSettings),
        .testTarget(
            name: "FlintStoreTests",
            dependencies: [
                "FlintStore", "FlintCore", "FlintTesting", "CSQLite3", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        // What the server's and the console's HTTP suites share: `TestNode` (a node in-process), `API` (the client side
        // of a test, its flows and helpers), `Reply`, Firebase's paths; and `StandInFunction` (a blocking function on
        // loopback), which the end-to-end tests take too.
        .target(
            name: "FlintServerTestSupport",
            dependencies: [
                "FlintServer", "FlintStore", "FlintCore", "FlintTesting", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/FlintServerTestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "FlintServerTests",
            dependencies: [
                "FlintServer", "FlintServerTestSupport", "FlintStore", "FlintCore", "FlintTexts", "FlintTesting", "FlintSAML",
                "FlintSAMLTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA verification of signed SAML AuthnRequests with the SP certificate.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            // The SAML suite signs responses through FlintSAMLTestSupport, which exposes xmlsec types.
            swiftSettings: xmlsecSettings
        ),
        // The console's HTTP suites, on nodes that serve the console module.
        .testTarget(
            name: "FlintConsoleTests",
            dependencies: [
                "FlintConsole", "FlintServer", "FlintServerTestSupport", "FlintStore", "FlintCore", "FlintTexts", "FlintTesting",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FlintSMTPTests",
            dependencies: [
                "FlintSMTP", "FlintTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Drives FlintAuth against the real `flint serve` binary.
        // Starts `flint serve` and drives its admin and dev APIs for the SDK's integration tests and the seeds' runs.
        // Test doubles of the server side (ManualClock, the web challenge's puzzle solver), kept out of the libraries.
        // Test support: fixed instants, a manual clock, and a software WebAuthn authenticator (Crypto, X509 for its certificate).
        .target(
            name: "FlintTesting",
            dependencies: [
                "FlintCore", .product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
                // The tests' PostgreSQL databases: a migrated template (FlintStore), copied through PostgresNIO.
                "FlintStore", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/FlintTesting", swiftSettings: strictSettings),
        .target(
            name: "FlintAuthTestSupport", dependencies: ["FlintAuth", "FlintTesting"], path: "Tests/FlintAuthTestSupport",
            swiftSettings: strictSettings),
        .testTarget(
            name: "FlintAuthTests",
            // Crypto for the tests' SHA-256 (solving the web challenge's puzzle), FlintTesting for its software passkey
            // authenticator; FlintAuth itself has no dependency.
            // FlintSAMLTestSupport signs a stand-in SAML IdP's responses (xmlsec's headers, as that target's).
            dependencies: [
                "FlintAuth", "FlintAuthTestSupport", "FlintCore", "FlintTesting", "FlintSAML", "FlintSAMLTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: xmlsecSettings),
        // The Swift snippets of the guides in ../shared/seeds, adapted only where they call UIKit or app code, run against flint serve.
        .testTarget(name: "FlintAuthSeedTests", dependencies: ["FlintAuth", "FlintAuthTestSupport", "FlintTesting"], swiftSettings: strictSettings),
        // Compiles FirebaseAuth calls as an app writes them (one per member FlintAuth offers), against the Firebase
        // module names; its tests run offline.
        .testTarget(
            name: "FirebaseAuthCompileProbe", dependencies: ["FirebaseAuth", "FirebaseCore"], path: "Tests/FirebaseAuthCompileProbe",
            swiftSettings: strictSettings),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // A stand-in blocking function for the two-node test (StandInFunction).
                .product(name: "HTTPTypes", package: "swift-http-types"),
                "FlintAuthTestSupport",
                "FlintCore",
                "FlintServerTestSupport",
                "FlintTesting",
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
