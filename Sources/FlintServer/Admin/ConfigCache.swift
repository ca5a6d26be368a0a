package import FlintCore
import FlintStore
import FlintTexts
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The node's copy of the project config, re-read periodically and replaced on every change made here. The stored
/// document's provider secrets are sealed with the master key (``SecretsAtRest/sealConfigSecrets(_:owner:)``); this copy
/// holds them open.
package final class ConfigCache: Sendable {
    private let store: any AuthStore
    private let secrets: SecretsAtRest
    /// The config, and how many times this node saved one (a reload that read the store before the latest save here
    /// is older than what it would replace).
    private let state = Mutex((config: ProjectConfig.defaults, saves: 0))
    /// The email texts parsed from the config's `flint.emailTemplates`.
    private let templates = ParsedMember(member: "emailTemplates", initial: EmailTemplates.builtIn) { $0.emailTemplates }
    /// The SMS texts parsed from the config's `flint.smsTemplates`.
    private let texts = ParsedMember(member: "smsTemplates", initial: SMSTemplates.builtIn) { $0.smsTemplates }

    /// The store aggregates its transactions touch: the config and its metadata, the audit log.
    typealias Writes = ConfigWrites & AuditWrites

    init(store: any AuthStore, secrets: SecretsAtRest) {
        self.store = store
        self.secrets = secrets
    }

    /// The current config of the request in progress: in a tenant (``TenantScope``), the project's with the tenant's
    /// settings; otherwise the project's.
    package var current: ProjectConfig { AuditOrigin.current.tenantSettings ?? project }

    /// The project's own current config, whatever tenant the request runs in.
    package var project: ProjectConfig { state.withLock { $0.config } }

    /// The current config's email texts (built-in templates with the operator's overrides), parsed again only when
    /// `flint.emailTemplates` changed rather than on every send.
    var emailTemplates: EmailTemplates { templates.value(of: current) }

    /// The current config's SMS texts (built-in texts with the operator's overrides), parsed again only when
    /// `flint.smsTemplates` changed rather than on every send.
    var smsTemplates: SMSTemplates { texts.value(of: current) }

    /// Re-reads the stored document. What a read that began before a save on this node returns is dropped: the save is
    /// newer, and the reload its announcement causes reads it back.
    func reload() async throws {
        let before = state.withLock { $0.saves }
        let loaded = try await Self.load(from: store, secrets: secrets)
        state.withLock { if $0.saves == before { $0.config = loaded } }
    }

    /// Stores a new config, with its `CONFIG_CHANGED` audit event (`change` says what changed) at `now`, then
    /// uses it.
    func save(_ new: ProjectConfig, at now: Instant, change: [String: JSONValue]) async throws {
        try await Self.save(new, to: store, secrets: secrets, at: now, change: change)
        state.withLock { $0 = (new, $0.saves + 1) }
    }

    /// The name under which the digest of the last applied `--config` file is stored beside the config.
    static let appliedFileDigestName = "appliedFileSHA256"

    /// Applies a `--config` file over the stored config when its content changed since it was last applied (or when
    /// `digest` is `nil`): each top-level field of the file replaces the stored one. An unchanged file is not applied
    /// again, so changes made since through the admin API or `flint config set` survive restarts. An applied file is a
    /// `CONFIG_CHANGED` audit event at `now`, by the actor `config-file`, naming the fields the file sets.
    /// - Returns: whether the file was applied.
    func apply(file document: [String: JSONValue], digest: String?, at now: Instant) async throws -> Bool {
        if let digest, try await store.read({ try await $0.configMetadata(Self.appliedFileDigestName) }) == digest { return false }
        var merged = try await Self.load(from: store, secrets: secrets).document
        for (key, value) in document { merged[key] = value }
        let new = try ProjectConfig(document: merged)
        let text = try Self.encode(secrets.sealConfigSecrets(new.document))
        let fields = JSONValue.array(document.keys.sorted().map(JSONValue.string))
        try await AuditOrigin.$current.withValue(AuditOrigin(actor: "config-file")) {
            try await store.write { [secrets = self.secrets] tx in
                try await Self.save(
                    text, samlProviders: Set(new.idpResources(.saml).keys), change: ["source": "file", "fields": fields], digest: digest,
                    secrets: secrets, in: tx, now: now)
            }
        }
        state.withLock { $0 = (new, $0.saves + 1) }
        await store.announce(.config)
        return true
    }

    /// Stores a config text with its `CONFIG_CHANGED` event (`change` says what changed), and the applied file's
    /// digest when there is one; the SP keys follow the config's SAML providers (`samlProviders`) in the same
    /// transaction (``SAMLServiceProviderKeys/sync(in:tenant:providers:secrets:now:)``).
    private static func save(
        _ text: String, samlProviders: Set<String>, change: [String: JSONValue], digest: String? = nil, secrets: SecretsAtRest,
        in tx: some Writes, now: Instant
    ) async throws {
        try await tx.saveProjectConfig(text)
        try await SAMLServiceProviderKeys.sync(in: tx, tenant: .default, providers: samlProviders, secrets: secrets, now: now)
        if let digest { try await tx.saveConfigMetadata(Self.appliedFileDigestName, value: digest) }
        try await tx.audit(.configChanged, uid: nil, at: now, change)
    }

    /// The digest of the config file last applied, if any.
    static func appliedFileDigest(in store: any AuthStore) async throws -> String? {
        try await store.read { try await $0.configMetadata(appliedFileDigestName) }
    }

    /// Reads the stored config (defaults when none is stored), its provider secrets opened with `secrets`.
    static func load(from store: any AuthStore, secrets: SecretsAtRest) async throws -> ProjectConfig {
        guard let text = try await store.read({ try await $0.projectConfig() }) else { return .defaults }
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        return try ProjectConfig(document: secrets.openConfigSecrets(value.objectValue ?? [:]))
    }

    /// Writes a config document (its provider secrets sealed with `secrets`) and its `CONFIG_CHANGED` audit event (`change` says what changed) at `now`.
    static func save(
        _ config: ProjectConfig, to store: any AuthStore, secrets: SecretsAtRest, at now: Instant, change: [String: JSONValue]
    ) async throws {
        let text = try encode(secrets.sealConfigSecrets(config.document))
        let samlProviders = Set(config.idpResources(.saml).keys)
        try await store.write { tx in
            try await save(text, samlProviders: samlProviders, change: change, secrets: secrets, in: tx, now: now)
        }
        await store.announce(.config)
    }

    /// The stored form of a config document: sorted JSON.
    static func encode(_ document: [String: JSONValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    /// A stored config text as a document (`nil` for none).
    static func parse(_ text: String?) -> [String: JSONValue]? {
        guard let text else { return nil }
        return (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.objectValue
    }
}

/// A value parsed from one member of the config's `flint` section, kept with the member it was parsed from and
/// parsed again only when that member changed.
private final class ParsedMember<Value: Sendable>: Sendable {
    private let member: String
    private let parse: @Sendable (ProjectConfig) -> Value
    private let cached: Mutex<(source: JSONValue?, value: Value)>

    init(member: String, initial: Value, parse: @escaping @Sendable (ProjectConfig) -> Value) {
        (self.member, self.parse) = (member, parse)
        cached = Mutex((nil, initial))
    }

    func value(of config: ProjectConfig) -> Value {
        let source = config.document["flint"]?[member]
        return cached.withLock { cached in
            if cached.source == source { return cached.value }
            let parsed = parse(config)
            cached = (source, parsed)
            return parsed
        }
    }
}
