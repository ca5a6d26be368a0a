import Foundation

/// A `verifyClient` receipt and the secret its silent push delivered, FirebaseAuth's `AuthAppCredential`.
struct AppCredential: Codable, Sendable, Equatable {
    var receipt: String
    var secret: String
}

/// The app credential of one app, kept in a `0600` JSON file beside the file store of users (`storeDirectory`, else
/// FlintAuth's application-support directory, as ``UserStore``), on every platform. It outlives sign-out (the
/// credential proves the app, not the user): the full credential, reused until the server refuses it, and the
/// receipts still waiting for their push (at most ``maxPendingReceipts``, oldest dropped first).
struct AppCredentialStore: Sendable {
    /// What is written.
    struct Stored: Codable, Sendable, Equatable {
        var credential: AppCredential?
        var pendingReceipts: [String] = []
    }

    /// Receipts kept waiting, as FirebaseAuth keeps.
    static let maxPendingReceipts = 32

    let fileURL: URL

    init(appName: String, apiKey: String, directory: URL? = nil) {
        let userFile = UserStore(appName: appName, apiKey: apiKey, directory: directory).fileURL
        let name = userFile.deletingPathExtension().lastPathComponent.replacingOccurrences(of: "_firebase_user", with: "")
        fileURL = userFile.deletingLastPathComponent().appendingPathComponent("\(name)_app_credentials.json")
    }

    /// The stored state (empty when none or unreadable).
    func load() -> Stored {
        guard let data = try? Data(contentsOf: fileURL), let stored = try? JSONDecoder().decode(Stored.self, from: data) else { return Stored() }
        return stored
    }

    /// Writes the state, readable by its owner only; a failure leaves the previous file (the state in memory still
    /// serves this process).
    func save(_ stored: Stored) {
        let manager = FileManager.default
        let directory = fileURL.deletingLastPathComponent()
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let data = try JSONEncoder().encode(stored)
            let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
            guard manager.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
            if manager.fileExists(atPath: fileURL.path) { try manager.removeItem(at: fileURL) }
            try manager.moveItem(at: temporary, to: fileURL)
        } catch {
            return
        }
    }
}
