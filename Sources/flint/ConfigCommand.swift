import ArgumentParser
import FlintCore
import FlintServer
import FlintStore
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint config show|set|diff`: the project config, read and written in the data directory's store (running nodes
/// pick a change up within their reload interval). Identity providers' secrets are opened and sealed with the master
/// key when one is found (flag, environment or the data directory's file), and shown sealed without one.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show or change the project config.", subcommands: [Show.self, Set.self, Diff.self]
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the project config as JSON.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Project ID for the resource name.") var project: String = FlintEnvironment.string("project") ?? "demo-flint"

        func run() async throws {
            let config = try await store.withStore { db in
                try await ProjectConfigStore.load(from: db, masterKey: try await store.masterKey(for: db, useDataDirectory: true, create: false)?.key)
            }
            print(try ConfigFile.render(config.resource(projectID: project)))
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set one config path, as in an updateMask.",
            discussion: """
                PATH is one of: \(ProjectConfig.updatablePaths.joined(separator: ", ")).
                VALUE is JSON (true, ["a.com"], {"+16505551234":"123456"}); a bare word is taken as a string.
                Examples:
                  flint config set signIn.phoneNumber.enabled false
                  flint config set signIn.phoneNumber.testPhoneNumbers '{"+1 650-555-1234":"123456"}'
                  flint config set authorizedDomains '["localhost","example.com"]'
                """
        )
        @OptionGroup var store: StoreOptions
        @Argument(help: "The config path.") var path: String
        @Argument(help: "The new value (JSON).") var value: String
        @Option(help: "Project ID for the resource name.") var project: String = FlintEnvironment.string("project") ?? "demo-flint"

        func run() async throws {
            let parsed = (try? JSONDecoder().decode(JSONValue.self, from: Data(value.utf8))) ?? .string(value)
            var patch: JSONValue = parsed
            for key in path.split(separator: ".").reversed() { patch = .object([String(key): patch]) }
            let updated = try await store.withStore(mappingErrors: { ($0 as? AuthError).map { ValidationError($0.message) } ?? $0 }) { db in
                let key = try await store.masterKey(for: db, useDataDirectory: true, create: false)?.key
                let current = try await ProjectConfigStore.load(from: db, masterKey: key)
                let updated = try current.applying(patch: patch.objectValue ?? [:], updateMask: [path])
                try await ProjectConfigStore.save(updated, to: db, masterKey: key, updateMask: [path])
                return updated
            }
            print(try ConfigFile.render(updated.resource(projectID: project)))
        }
    }
}

extension ConfigCommand {
    struct Diff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the fields where a config file and the stored config differ.",
            discussion: """
                flint serve --config FILE applies the file only when its content changed since it was last applied, so \
                changes made through the admin API or `flint config set` survive restarts with the same file. This \
                lists, for each top-level field the file sets, the fields it would change (file value, then stored \
                value; "(absent)" where one side has none), and says whether the next start would apply the file.
                """
        )
        @OptionGroup var store: StoreOptions
        @Argument(help: "The config file, YAML or JSON.") var file: String

        func run() async throws {
            let contents: ConfigFile.Contents
            do { contents = try ConfigFile.read(path: file) } catch let error as ConfigFile.Failure { throw ValidationError(error.description) }
            let (stored, applied) = try await store.withStore { db in
                let key = try await store.masterKey(for: db, useDataDirectory: true, create: false)?.key
                return (try await ProjectConfigStore.load(from: db, masterKey: key), try await ProjectConfigStore.appliedFileDigest(in: db))
            }
            let differences = ConfigFile.differences(file: contents.document, stored: stored.document)
            if differences.isEmpty { print("no differences: the stored config has every field the file sets") }
            for difference in differences {
                print("\(difference.path): file \(Self.show(difference.file)), stored \(Self.show(difference.stored))")
            }
            if applied == contents.digest {
                print("this file was the last one applied: flint serve --config keeps the stored config")
            } else {
                print("this file has not been applied in this content: flint serve --config applies it at the next start")
            }
        }

        private static func show(_ value: JSONValue?) -> String {
            guard let value else { return "(absent)" }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }
    }
}

func quietLogger() -> Logger {
    var logger = Logger(label: "flint")
    logger.logLevel = .warning
    return logger
}
