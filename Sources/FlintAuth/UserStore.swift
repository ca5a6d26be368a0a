import Foundation

/// Where an app's signed-in user is kept between launches: a `0600` file (`UserStore`, Linux and the fallback) or
/// the Keychain (`KeychainUserStore`, Apple platforms).
protocol UserStorage: Sendable {
    /// The stored user, if any and readable.
    func load() -> StoredUser?
    /// Writes the user.
    func save(_ stored: StoredUser) throws
    /// Forgets the user.
    func remove()
    /// Whether the last `load()` found the store locked (the Keychain before the device's first unlock), so a
    /// stored user may exist that could not be read yet.
    var lockedAtLastLoad: Bool { get }
}

extension UserStorage {
    /// Files are never locked.
    var lockedAtLastLoad: Bool { false }
}

/// What is written: the profile and the tokens.
struct StoredUser: Codable, Sendable {
    var profile: UserProfile
    var tokens: SecureTokenService.Tokens
}

/// The signed-in user of one app, kept in a `0600` JSON file in the user's application-support directory (on
/// Linux `~/.local/share/FlintAuth`), named after the app and its API key.
struct UserStore: UserStorage {
    typealias Stored = StoredUser

    let fileURL: URL

    init(appName: String, apiKey: String, directory: URL? = nil) {
        let base = directory ?? Self.defaultDirectory
        fileURL = base.appendingPathComponent("firebase_auth_\(Self.safe(appName))_\(Self.safe(apiKey))_firebase_user.json")
    }

    /// The store of the user shared by every app of the same OS user that uses `accessGroup` with the same API key
    /// (Linux's stand-in for a Keychain access group): `AccessGroups/<group>/firebase_auth_<apiKey>_firebase_user.json`
    /// under `directory` or FlintAuth's application-support directory.
    init(accessGroup: String, apiKey: String, directory: URL? = nil) {
        let base = (directory ?? Self.defaultDirectory).appendingPathComponent("AccessGroups", isDirectory: true)
            .appendingPathComponent(Self.safe(accessGroup), isDirectory: true)
        fileURL = base.appendingPathComponent("firebase_auth_\(Self.safe(apiKey))_firebase_user.json")
    }

    /// FlintAuth's application-support directory (on Linux `~/.local/share/FlintAuth`).
    static var defaultDirectory: URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
            .appendingPathComponent("FlintAuth", isDirectory: true)
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("FlintAuth", isDirectory: true)
    }

    /// `text` with every character but letters, digits and `-` replaced by `_`, for a file name.
    static func safe(_ text: String) -> String { String(text.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }) }

    /// The stored user, if any and readable.
    func load() -> Stored? {
        guard let data = try? Data(contentsOf: fileURL) else { return nil }
        return try? JSONDecoder().decode(Stored.self, from: data)
    }

    /// Writes the user; readable by its owner only.
    func save(_ stored: Stored) throws {
        let manager = FileManager.default
        let directory = fileURL.deletingLastPathComponent()
        try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONEncoder().encode(stored)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        guard manager.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        if manager.fileExists(atPath: fileURL.path) { try manager.removeItem(at: fileURL) }
        try manager.moveItem(at: temporary, to: fileURL)
    }

    /// Forgets the user.
    func remove() {
        try? FileManager.default.removeItem(at: fileURL)
    }
}
