public import FlintCore
public import FlintStore
import Yams

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading and printing project config documents (YAML or JSON, in Firebase's admin `Config` schema).
public enum ConfigFile {
    /// Why a config file was refused.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Loads and validates a YAML or JSON file.
    /// - Throws: ``Failure`` naming the file and the problem.
    public static func load(path: String) throws -> [String: JSONValue] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "cannot read config file \(path)") }
        let document: JSONValue
        do {
            document = try YAMLDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw Failure(description: "config file \(path) is not valid YAML or JSON: \(error)")
        }
        guard let object = document.objectValue else { throw Failure(description: "config file \(path) must hold a mapping at the top") }
        do {
            return try ProjectConfig(document: object).document
        } catch {
            throw Failure(description: "config file \(path): \(error.message)")
        }
    }

    /// Pretty JSON for people.
    public static func render(_ document: [String: JSONValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }
}

/// Loading and saving the project config in a store, for the CLI.
public enum ProjectConfigStore {
    /// The stored config, or the defaults.
    public static func load(from store: any AuthStore) async throws -> ProjectConfig {
        try await ConfigCache.load(from: store)
    }

    /// Stores a validated config.
    public static func save(_ config: ProjectConfig, to store: any AuthStore) async throws {
        try await ConfigCache.save(config, to: store)
    }
}
