import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint keys`: token-signing keys and the master key that seals them.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage token-signing keys and the master key.", subcommands: [Rotate.self, Revoke.self, MasterKeyCommand.self, Rewrap.self])

    /// `flint keys rotate`: schedule a signing key; it signs once verifiers have fetched it, and the old one stays
    /// published until its tokens have expired.
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Schedule a new signing key: published at once, it starts signing an hour and five minutes (plus the reload interval) later.",
            discussion: """
                Verifiers cache Flint's keys for the key endpoints' max-age (an hour), and a node that missed the change \
                announcement publishes the new key at its next reload, so a new key is published for the max-age plus \
                the nodes' reload interval plus five minutes before every node starts signing with it; the key signing \
                until then stays published for 14 days and an hour, until the ID tokens and session cookies it signed \
                have expired. While a scheduled key has not started signing, rotating again answers that key. Give the \
                longest --reload-interval your nodes run with. For a leaked key use `flint keys revoke KID`.
                """
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "The longest --reload-interval of the running nodes, in seconds (env FLINT_RELOAD_INTERVAL).")
        var reloadInterval: Int = FlintEnvironment.int("reloadInterval", default: 30)

        func validate() throws {
            guard (1...3600).contains(reloadInterval) else { throw ValidationError("--reload-interval must be between 1 and 3600 seconds") }
        }

        func run() async throws {
            let scheduled = try await store.withStore { db in
                try await FlintServer.rotateKeys(
                    store: db, masterKey: try await store.requiredMasterKey(for: db).key, reloadInterval: .seconds(reloadInterval))
            }
            let when = ImportTimestamp.format(scheduled.activatesAt)
            print(
                scheduled.isNew
                    ? "new signing key \(scheduled.kid) is published now and signs new tokens from \(when); earlier keys stay published until their tokens expire"
                    : "signing key \(scheduled.kid) was already scheduled and signs new tokens from \(when); nothing added")
        }
    }

    /// `flint keys revoke KID`: emergency rotation for a leaked key.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Emergency rotation for a leaked key: unpublish it at once and, if it was signing, sign with a new key at once.",
            discussion: """
                The revoked key is no longer published nor accepted: every ID token and session cookie it signed stops \
                verifying (users signed in with them must refresh their ID token or sign in again; verifiers that cached \
                the key accept its tokens until their cache expires, up to an hour). If it was the key signing now, a new \
                key signs at once, without the scheduled rotation's notice: a verifier that cached the keys before and \
                does not fetch them again on an unknown kid refuses its tokens until its cache expires (up to an hour); \
                other keys stop signing and stay published while their tokens live. A key that was not signing (retired, \
                or scheduled and not started) is only revoked: the signing key goes on signing. Running nodes on \
                PostgreSQL follow within a second, others within their reload interval. Audited as an admin action by \
                `cli`. For a routine rotation use `flint keys rotate`.
                """
        )
        @OptionGroup var store: StoreOptions
        @Argument(help: "The leaked key's ID (the `kid` in the header of the tokens it signed; the console's Keys page lists every key).")
        var kid: String

        func run() async throws {
            let revocation = try await store.withStore { db in
                try await AuditOrigin.$current.withValue(AuditOrigin(actor: "cli")) {
                    try await FlintServer.revokeKey(kid, store: db, masterKey: try await store.requiredMasterKey(for: db).key)
                }
            }
            switch revocation {
            case nil:
                printError("flint keys revoke: no signing key \(kid) that is not revoked already")
                throw ExitCode.failure
            case .replaced(let newKID):
                print("signing key \(kid) is revoked: no longer published, the tokens it signed no longer verify; new key \(newKID) signs from now")
            case .revoked(let signing):
                print(
                    "signing key \(kid) is revoked: no longer published, the tokens it signed no longer verify; it was not signing, "
                        + (signing.map { "key \($0) goes on signing" } ?? "no key signs"))
            }
        }
    }

    /// `flint keys master-key`: print a new master key.
    struct MasterKeyCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "master-key",
            abstract: "Print a new random master key (base64 of 32 bytes) for FLINT_MASTER_KEY or a --master-key-file.",
            discussion: "flint keys master-key > /etc/flint/master.key && chmod 600 /etc/flint/master.key"
        )

        func run() async throws {
            print(MasterKey.generate().base64)
        }
    }

    /// `flint keys rewrap`: seal every stored secret again under a new master key, in one transaction.
    struct Rewrap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Seal the store's secrets under a new master key (the current one given as usual), in one transaction.",
            discussion:
                "Then restart every node with the new key. When the current key is the data directory's master.key, the file is replaced by the new key."
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "File holding the new master key (env FLINT_NEW_MASTER_KEY_FILE, or the key itself in FLINT_NEW_MASTER_KEY).")
        var newMasterKeyFile: String?

        /// The new key, from the flag or the environment.
        private func newKey() throws -> MasterKey {
            if let path = newMasterKeyFile ?? (FlintEnvironment.string("newMasterKey") == nil ? FlintEnvironment.string("newMasterKeyFile") : nil) {
                return try MasterKeyFile.read(path: path)
            }
            guard let text = FlintEnvironment.string("newMasterKey") else {
                throw MasterKeyMissing(description: "flint keys rewrap needs the new key: --new-master-key-file FILE or FLINT_NEW_MASTER_KEY")
            }
            do { return try MasterKey(base64: text) } catch { throw MasterKeyMissing(description: "FLINT_NEW_MASTER_KEY: \(error)") }
        }

        func run() async throws {
            let next = try newKey()
            try await store.withStore { db in
                let current = try await store.masterKey(for: db, useDataDirectory: true, create: false)
                // A key that lives in the data directory is replaced there: written beside it first, moved after commit.
                let staged = current?.dataDirectoryFile.map { $0 + ".new" }
                if let staged {
                    try? FileManager.default.removeItem(atPath: staged)
                    try MasterKeyFile.save(next, at: staged)
                }
                let count: Int
                do { count = try await SecretsAtRest(masterKey: current?.key).rewrap(store: db, to: next) } catch {
                    if let staged { try? FileManager.default.removeItem(atPath: staged) }
                    throw error
                }
                if let staged, let file = current?.dataDirectoryFile {
                    guard MasterKeyFile.replace(file, with: staged) else {
                        throw MasterKeyMissing(description: "the secrets are sealed with the new key, kept in \(staged): move it to \(file)")
                    }
                    print("\(file) now holds the new key")
                }
                print("\(count) secret(s) sealed with master key \(next.id) (was \(current?.key.id ?? "none")); restart every node with the new key")
            }
        }
    }
}
