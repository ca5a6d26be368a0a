import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

@testable import FlintServer

/// The engines these tests run on: SQLite always, PostgreSQL when `FLINT_TEST_POSTGRES_URL` names a server.
enum StoreEngine: String, CustomStringConvertible, Sendable {
    case sqlite, postgres

    var description: String { rawValue }

    static var all: [StoreEngine] {
        ProcessInfo.processInfo.environment["FLINT_TEST_POSTGRES_URL"] == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// A new, empty store's location: a temporary SQLite file, or a new database on the test server (through `psql`).
    func freshLocation() async throws -> String {
        guard self == .postgres else { return temporaryDatabasePath() }
        return try await freshPostgresTestDatabase(on: ProcessInfo.processInfo.environment["FLINT_TEST_POSTGRES_URL"] ?? "", prefix: "flint_srv_")
    }

    /// Runs `body` against a node (settings changed by `configure`) on the store at `location`, then closes the store.
    func serve(
        _ location: String, configure: (inout ServerSettings) -> Void = { _ in }, _ body: @escaping @Sendable (API) async throws -> Void
    ) async throws {
        let store = try await open(location)
        do {
            var settings = ServerSettings()
            settings.port = 0
            configure(&settings)
            var logger = Logger(label: "engine-node")
            logger.logLevel = .warning
            let clock = ManualClock(Instant(Date()))
            let server = try await FlintServer(settings: settings, store: store, clock: clock, logger: logger)
            try await server.application.test(.router) { client in try await body(API(client: client, clock: clock)) }
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    /// The store at `location`.
    func open(_ location: String) async throws -> any AuthStore {
        var logger = Logger(label: "idp-secrets")
        logger.logLevel = .warning
        switch self {
        case .sqlite: return try await SQLiteStore(path: location, logger: logger)
        case .postgres:
            let place = try #require(PostgresStore.Location(url: location))
            return try await PostgresStore(location: place, maximumConnections: 4, startTimeout: postgresTestStartLimit, logger: logger)
        }
    }

    /// Runs `body` against a node on the store at `location` with `key` as its master key, then closes the store.
    func withNode(_ location: String, key: MasterKey? = nil, _ body: @escaping @Sendable (API) async throws -> Void) async throws {
        try await serve(location, configure: { $0.masterKey = key }, body)
    }
}

/// Identity providers' client secrets and Apple's code-flow private key are sealed with the master key in the stored
/// config, and answered in clear by the admin API, as Identity Platform answers them.
@Suite("identity providers' secrets at rest", .serialized)
struct IdpSecretsAtRestTests {
    static let clientSecret = "corp-client-secret-value"
    static let privateKey = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----"

    /// Starting a node on `location` with `key` fails with `error`.
    private func expectRefusal(_ engine: StoreEngine, _ location: String, key: MasterKey?, _ error: MasterKeyError) async throws {
        let store = try await engine.open(location)
        var settings = ServerSettings()
        settings.masterKey = key
        await #expect(throws: error) { _ = try await FlintServer(settings: settings, store: store, logger: Logger(label: "refused")) }
        try await store.close()
    }

    /// The stored config document's text and the store's secrets status.
    private func stored(_ engine: StoreEngine, _ location: String) async throws -> (text: String, status: SecretsStatus) {
        let store = try await engine.open(location)
        let text = try await store.read { try await $0.projectConfig() } ?? ""
        let status = try await SecretsStatus.read(from: store)
        try await store.close()
        return (text, status)
    }

    /// Creates an OIDC provider with a client secret and Apple with a code-flow key.
    private static func configure(_ api: API) async throws {
        try await api.configureIdp(
            "oidc.corp",
            ["enabled": true, "clientId": "corp", "clientSecret": .string(clientSecret), "issuer": "https://issuer.example.com"])
        try await api.configureIdp(
            "apple.com",
            [
                "enabled": true, "clientId": "com.example.signin",
                "appleSignInConfig": ["codeFlowConfig": ["teamId": "T", "keyId": "K", "privateKey": .string(privateKey)]],
            ])
    }

    /// Both secrets, read back through the admin API.
    private static func expectAnsweredInClear(_ api: API) async throws {
        let oidc = try await api.admin(.get, "\(Path.oauthIdps)/oidc.corp")
        #expect(oidc.string("clientSecret") == clientSecret, "\(oidc.text)")
        let apple = try await api.admin(.get, "\(Path.defaultIdps)/apple.com")
        #expect(apple["appleSignInConfig"]?["codeFlowConfig"]?["privateKey"]?.stringValue == privateKey, "\(apple.text)")
    }

    @Test(
        "with a master key the stored config holds the secrets sealed; the admin API answers them in clear, after a restart too",
        arguments: StoreEngine.all)
    func sealedAndAnswered(_ engine: StoreEngine) async throws {
        let location = try await engine.freshLocation()
        let key = MasterKey.generate()
        try await engine.withNode(location, key: key) { api in
            try await Self.configure(api)
            try await Self.expectAnsweredInClear(api)
        }
        let (text, status) = try await stored(engine, location)
        #expect(!text.contains(Self.clientSecret) && !text.contains("PRIVATE KEY"), "\(text)")
        #expect(text.contains("sealed:v1:\(key.id):"))
        #expect(status == SecretsStatus(inClear: 0, sealedByKey: [key.id: 4]), "server secret, signing key, two provider secrets")
        try await engine.withNode(location, key: key) { api in try await Self.expectAnsweredInClear(api) }
    }

    @Test(
        "secrets kept in clear are sealed at the first start with a key; a wrong key or none refuses; rewrap seals them again",
        arguments: StoreEngine.all)
    func sealedAtStartAndRewrapped(_ engine: StoreEngine) async throws {
        let location = try await engine.freshLocation()
        try await engine.withNode(location, key: nil) { api in try await Self.configure(api) }
        let before = try await stored(engine, location)
        #expect(before.text.contains(Self.clientSecret), "without a key, kept in clear")
        #expect(before.status == SecretsStatus(inClear: 4, sealedByKey: [:]))

        let key = MasterKey.generate()
        try await engine.withNode(location, key: key) { api in try await Self.expectAnsweredInClear(api) }
        let after = try await stored(engine, location)
        #expect(!after.text.contains(Self.clientSecret) && !after.text.contains("PRIVATE KEY"), "\(after.text)")
        #expect(after.status == SecretsStatus(inClear: 0, sealedByKey: [key.id: 4]))

        let other = MasterKey.generate()
        try await expectRefusal(engine, location, key: other, .wrongKey(stored: key.id, given: other.id))
        try await expectRefusal(engine, location, key: nil, .wrongKey(stored: key.id, given: nil))

        let store = try await engine.open(location)
        #expect(try await SecretsAtRest(masterKey: key).rewrap(store: store, to: other) == 4)
        try await store.close()
        #expect(try await stored(engine, location).status == SecretsStatus(inClear: 0, sealedByKey: [other.id: 4]))
        try await engine.withNode(location, key: other) { api in try await Self.expectAnsweredInClear(api) }
    }

    @Test("an envelope is bound to its provider and field: copied onto another provider it does not open")
    func boundToItsPlace() throws {
        let secrets = SecretsAtRest(masterKey: MasterKey.generate())
        let document: [String: JSONValue] = [
            "oauthIdpConfigs": ["oidc.a": ["clientSecret": "a-secret"], "oidc.b": ["clientSecret": "b-secret"]]
        ]
        let sealed = try secrets.sealConfigSecrets(document)
        #expect(try secrets.openConfigSecrets(sealed) == document)
        var swapped = sealed
        swapped["oauthIdpConfigs"] = [
            "oidc.a": sealed["oauthIdpConfigs"]?["oidc.b"] ?? .null, "oidc.b": sealed["oauthIdpConfigs"]?["oidc.a"] ?? .null,
        ]
        #expect(throws: MasterKeyError.self) { try secrets.openConfigSecrets(swapped) }
        #expect(try SecretsAtRest(masterKey: nil).openConfigSecrets(sealed) == sealed, "without a key, shown sealed")
    }
}
