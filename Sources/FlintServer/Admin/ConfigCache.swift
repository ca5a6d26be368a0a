import FlintCore
import FlintStore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The node's copy of the project config, re-read periodically and replaced on every change made here.
final class ConfigCache: Sendable {
    private let store: any AuthStore
    private let config = Mutex(ProjectConfig.defaults)
    /// The email texts parsed from the config's `flint.emailTemplates`, and the value they were parsed from.
    private let templates = Mutex<(source: JSONValue?, value: EmailTemplates)>((nil, .builtIn))

    init(store: any AuthStore) {
        self.store = store
    }

    /// The current config.
    var current: ProjectConfig { config.withLock { $0 } }

    /// The current config's email texts (built-in templates with the operator's overrides), parsed again only when
    /// `flint.emailTemplates` changed rather than on every send.
    var emailTemplates: EmailTemplates {
        let current = self.current
        let source = current.document["flint"]?["emailTemplates"]
        return templates.withLock { cached in
            if cached.source == source { return cached.value }
            let parsed = current.emailTemplates
            cached = (source, parsed)
            return parsed
        }
    }

    /// Re-reads the stored document.
    func reload() async throws {
        let loaded = try await Self.load(from: store)
        config.withLock { $0 = loaded }
    }

    /// Validates and stores a new config, then uses it.
    func save(_ new: ProjectConfig) async throws {
        try await Self.save(new, to: store)
        config.withLock { $0 = new }
    }

    /// Reads the stored config (defaults when none is stored).
    static func load(from store: any AuthStore) async throws -> ProjectConfig {
        guard let text = try await store.read({ try await $0.projectConfig() }) else { return .defaults }
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        return try ProjectConfig(document: value.objectValue ?? [:])
    }

    /// Writes a config document.
    static func save(_ config: ProjectConfig, to store: any AuthStore) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(config.document), as: UTF8.self)
        try await store.write { tx in try await tx.saveProjectConfig(text) }
    }
}
