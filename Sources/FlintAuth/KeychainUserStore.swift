#if canImport(Security)
    import Foundation
    @preconcurrency import Security

    /// The signed-in user of one app in the Keychain, where FirebaseAuth keeps it: a generic password with service
    /// `firebase_auth_<googleAppID, or the API key>` and account `firebase_auth_1_<appName>_firebase_user`,
    /// readable after the first unlock on this device only, in the data-protection keychain. The value is the same
    /// JSON the file store writes (FirebaseAuth's is a keyed archive, so the two SDKs do not read each other's entry).
    ///
    /// The data-protection keychain needs a signed app with a keychain entitlement; a process without one (a
    /// command-line tool, `swift test`) gets `errSecMissingEntitlement`, and the user then goes to `fallback`, the
    /// `0600` file store.
    struct KeychainUserStore: UserStorage {
        let service: String
        let account: String
        /// The Keychain access group shared with app extensions and other apps of the team, `nil` for the app's own.
        let accessGroup: String?
        /// Whether the item syncs through iCloud Keychain (`shareAuthStateAcrossDevices`).
        let synchronizable: Bool
        let fallback: UserStore
        private let locked = Locked(false)

        var lockedAtLastLoad: Bool { locked.current }

        init(appName: String, googleAppID: String?, apiKey: String) {
            let appID = googleAppID.flatMap { $0.isEmpty ? nil : $0 } ?? apiKey
            service = "firebase_auth_\(appID)"
            account = "firebase_auth_1_\(appName)_firebase_user"
            accessGroup = nil
            synchronizable = false
            fallback = UserStore(appName: appName, apiKey: apiKey)
        }

        /// The user shared through `accessGroup`, where FirebaseAuth's `AuthStoredUserManager` keeps it: service the
        /// API key, account `firebase_auth_firebase_user`, synchronizable when `shareAcrossDevices`.
        init(accessGroup: String, apiKey: String, shareAcrossDevices: Bool) {
            service = apiKey
            account = "firebase_auth_firebase_user"
            self.accessGroup = accessGroup
            synchronizable = shareAcrossDevices
            fallback = UserStore(accessGroup: accessGroup, apiKey: apiKey)
        }

        /// The attributes that name the item.
        private var query: [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            if synchronizable { query[kSecAttrSynchronizable as String] = true }
            return query
        }

        func load() -> StoredUser? {
            var search = query
            search[kSecReturnData as String] = true
            search[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &result)
            locked.withLock { $0 = status == errSecInteractionNotAllowed }
            if status == errSecMissingEntitlement { return fallback.load() }
            guard status == errSecSuccess, let data = result as? Data else { return nil }
            return try? JSONDecoder().decode(StoredUser.self, from: data)
        }

        func save(_ stored: StoredUser) throws {
            let data = try JSONEncoder().encode(stored)
            let update: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: synchronizable
                    ? kSecAttrAccessibleAfterFirstUnlock : kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
            if status == errSecItemNotFound {
                var add = query
                add.merge(update) { _, new in new }
                status = SecItemAdd(add as CFDictionary, nil)
            }
            if status == errSecMissingEntitlement { return try fallback.save(stored) }
            guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        }

        func remove() {
            _ = SecItemDelete(query as CFDictionary)
            fallback.remove()
        }
    }
#endif
