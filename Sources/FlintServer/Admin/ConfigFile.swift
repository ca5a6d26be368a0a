import Crypto
package import FlintCore
package import FlintStore
import Yams

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Reading and printing project config documents (YAML or JSON, in Firebase's admin `Config` schema).
package enum ConfigFile {
    /// Why a config file was refused.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Loads and validates a YAML or JSON file.
    /// - Throws: ``Failure`` naming the file and the problem.
    package static func load(path: String) throws -> [String: JSONValue] {
        try read(path: path).document
    }

    /// A validated config file and the SHA-256 (hex) of its bytes, which decides whether a start applies it.
    package struct Contents: Sendable {
        /// The document, in the admin `Config` schema.
        package var document: [String: JSONValue]
        /// SHA-256 of the file as read, lower-case hex.
        package var digest: String
    }

    /// Loads and validates a YAML or JSON file, with the digest of its content.
    /// - Throws: ``Failure`` naming the file and the problem.
    package static func read(path: String) throws -> Contents {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "cannot read config file \(path)") }
        let document = try parse(data, name: path)
        let digest = Hex.encode(SHA256.hash(data: data))
        return Contents(document: document, digest: digest)
    }

    /// Parses and validates a YAML or JSON document.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - name: how messages name the document (its path).
    /// - Throws: ``Failure`` naming the document and the problem.
    package static func parse(_ data: Data, name: String) throws -> [String: JSONValue] {
        let document: JSONValue
        do {
            document = try YAMLDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw Failure(description: "config file \(name) is not valid YAML or JSON: \(error)")
        }
        guard let object = document.objectValue else { throw Failure(description: "config file \(name) must hold a mapping at the top") }
        do {
            return try ProjectConfig(document: object).document
        } catch {
            throw Failure(description: "config file \(name): \(error.message)")
        }
    }

    /// Pretty JSON for people.
    package static func render(_ document: [String: JSONValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }
}

/// Loading and saving the project config in a store, for the CLI.
package enum ProjectConfigStore {
    /// The stored config, or the defaults; its provider secrets opened with `masterKey` (kept sealed without one).
    package static func load(from store: any AuthStore, masterKey: MasterKey?) async throws -> ProjectConfig {
        try await ConfigCache.load(from: store, secrets: SecretsAtRest(masterKey: masterKey))
    }

    /// Stores a validated config, as the command line (`flint config set`) changes it: a `CONFIG_CHANGED` audit event
    /// by the actor `cli`, with the `updateMask` that named the changed paths; provider secrets in clear are sealed
    /// with `masterKey` when one is given.
    package static func save(_ config: ProjectConfig, to store: any AuthStore, masterKey: MasterKey?, updateMask: [String]) async throws {
        let now = SystemClock().now()
        let change: [String: JSONValue] = ["updateMask": .array(updateMask.map(JSONValue.string))]
        try await AuditOrigin.$current.withValue(AuditOrigin(actor: "cli")) {
            try await ConfigCache.save(config, to: store, secrets: SecretsAtRest(masterKey: masterKey), at: now, change: change)
        }
    }
}
