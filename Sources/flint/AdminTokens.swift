import ArgumentParser
import FlintCore
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint admin tokens create|list|revoke`: named admin bearer credentials.
struct AdminTokens: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens", abstract: "Named admin credentials (Authorization: Bearer), stored hashed.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an admin credential and print its secret, once.",
            discussion: """
                The secret is printed alone on standard output (SECRET=$(flint admin tokens create ci)); only its SHA-256 \
                is stored. Calls carrying it as Authorization: Bearer are logged with NAME. A read credential may \
                only read (lookups, listings, queries, config); anything else answers 403 INSUFFICIENT_PERMISSION.
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The credential's name (\(CredentialName.rule)).") var name: String
        @Option(help: "read or write.") var scope: String = "write"

        func validate() throws {
            guard CredentialName.isValid(name) else { throw ValidationError("NAME must be \(CredentialName.rule)") }
            guard [AdminScope.read.rawValue, AdminScope.write.rawValue].contains(scope) else {
                throw ValidationError("--scope must be read or write")
            }
        }

        func run() async throws {
            let secret = AdminSecret.generate(random: SystemRandom())
            let record = AdminCredentialRecord(
                secretHash: AdminSecret.hash(secret), name: name, scope: AdminScope(rawValue: scope),
                createdAt: SystemClock().now())
            try await store.withStore(mappingErrors: {
                guard case StoreError.conflict(.credentialName) = $0 else { return $0 }
                return ValidationError("an admin credential named \(name) exists; revoke it first or pick another name")
            }) { db in
                try await db.write { tx in try await tx.insertAdminCredential(record) }
            }
            printError("admin credential \(name) (\(scope)) created; its secret, shown only now:")
            print(secret)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List admin credentials (names and scopes, never secrets).")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON.") var json = false

        /// One credential as `--json` prints it.
        struct Entry: Encodable {
            var name, scope: String
            var createdAt: String?
            var revokedAt: String?
        }

        func run() async throws {
            let credentials = try await store.withStore { db in try await db.read { try await $0.adminCredentials() } }
            let entries = credentials.map {
                Entry(name: $0.name, scope: $0.scope.rawValue, createdAt: credentialTime($0.createdAt), revokedAt: credentialTime($0.revokedAt))
            }
            if json { return try printJSON(entries) }
            printTable(["NAME", "SCOPE", "CREATED", "REVOKED"], entries.map { [$0.name, $0.scope, $0.createdAt ?? "-", $0.revokedAt ?? "-"] })
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an admin credential: refused from its next call on, on every node.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The credential's name.") var name: String

        func run() async throws {
            let revoked = try await store.withStore { db in
                try await db.write { tx in try await tx.revokeAdminCredential(name: name, at: SystemClock().now()) }
            }
            guard revoked else { throw ValidationError("no unrevoked admin credential named \(name)") }
            print("admin credential \(name) revoked")
        }
    }
}
