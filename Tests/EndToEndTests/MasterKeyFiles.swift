import FlintTesting
import Foundation

/// A new master key (base64 of 32 random bytes), as `flint keys master-key` prints it.
func newMasterKeyText() -> String {
    Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
}

/// Writes a new master key to a fresh file (0600) and returns its path: the `--master-key-file` of nodes that share a
/// PostgreSQL database, which must all hold the key its secrets are sealed with.
func newMasterKeyFile() throws -> String {
    let path = temporaryDataDirectory() + ".key"
    guard FileManager.default.createFile(atPath: path, contents: Data((newMasterKeyText() + "\n").utf8), attributes: [.posixPermissions: 0o600])
    else { throw FlintProcessError(message: "cannot write \(path)") }
    return path
}
