import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the master key comes from, for every command that reads or writes the store's secrets: `--master-key-file`
/// (or `FLINT_MASTER_KEY_FILE`), the key itself in `FLINT_MASTER_KEY`, or the data directory's `master.key`, which
/// dev mode (and a command on a SQLite store) creates (0600) so a developer's `flint serve` needs no set-up.
extension StoreOptions {
    /// A master key and where it was found, for people.
    struct FoundMasterKey {
        let key: MasterKey
        let source: String
        /// The data directory's `master.key`, when the key came from there.
        let dataDirectoryFile: String?
    }

    /// The key given by flag or environment, if any.
    /// - Throws: ``MasterKeyMissing`` when the file cannot be read or the text is no key.
    func explicitMasterKey() throws -> FoundMasterKey? {
        if let path = masterKeyFile ?? (FlintEnvironment.string("masterKey") == nil ? FlintEnvironment.string("masterKeyFile") : nil) {
            return FoundMasterKey(key: try MasterKeyFile.read(path: path), source: "the file \(path)", dataDirectoryFile: nil)
        }
        if let text = FlintEnvironment.string("masterKey") {
            do { return FoundMasterKey(key: try MasterKey(base64: text), source: "FLINT_MASTER_KEY", dataDirectoryFile: nil) } catch {
                throw MasterKeyMissing(description: "FLINT_MASTER_KEY: \(error)")
            }
        }
        return nil
    }

    /// The key for `store`: the one given, else the data directory's `master.key`, created when `create` allows it
    /// and the store holds no sealed secret yet (a fresh store, or one kept in clear by an older Flint).
    /// - Parameters:
    ///   - useDataDirectory: whether the data directory's file may be read (not in production mode).
    /// - Returns: `nil` when there is none and none may be created.
    func masterKey(for store: any AuthStore, useDataDirectory: Bool, create: Bool) async throws -> FoundMasterKey? {
        if let found = try explicitMasterKey() { return found }
        guard useDataDirectory else { return nil }
        let path = masterKeyPath
        if FileManager.default.fileExists(atPath: path) {
            return FoundMasterKey(key: try MasterKeyFile.read(path: path), source: "the file \(path)", dataDirectoryFile: path)
        }
        guard create else { return nil }
        let status = try await SecretsStatus.read(from: store)
        if let sealedWith = status.sealedByKey.keys.sorted().first {
            throw MasterKeyMissing(description: MasterKeyError.wrongKey(stored: sealedWith, given: nil).description)
        }
        return FoundMasterKey(key: try MasterKeyFile.create(path: path), source: "the file \(path) (created)", dataDirectoryFile: path)
    }

    /// The key for a command that needs one: as ``masterKey(for:useDataDirectory:create:)``, creating the data
    /// directory's file only for SQLite (a developer's store).
    /// - Throws: ``MasterKeyMissing`` when there is none.
    func requiredMasterKey(for store: any AuthStore) async throws -> FoundMasterKey {
        if let found = try await masterKey(for: store, useDataDirectory: true, create: databaseURL == nil) { return found }
        throw MasterKeyMissing(description: "this command needs the master key that seals the store's secrets: \(MasterKeyFile.howTo)")
    }

    /// `DATA/master.key`.
    var masterKeyPath: String { data.hasSuffix("/") ? data + "master.key" : data + "/master.key" }
}

/// Why a command cannot go on without a master key, printed as one line (no usage text), exit status 1.
struct MasterKeyMissing: Error, CustomStringConvertible {
    let description: String
}
