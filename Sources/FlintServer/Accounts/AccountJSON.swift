import FlintCore
import FlintStore

/// A user as `accounts:lookup` returns it: Firebase's field names, times as strings of milliseconds.
package struct AccountJSON: Encodable {
    /// One `providerUserInfo` entry (Firebase's `ProviderUserInfo`).
    package struct ProviderInfo: Encodable {
        package var providerId: String
        package var rawId: String
        var phoneNumber: String?
        var email: String?
        var federatedId: String?
        var displayName: String?
        var photoUrl: String?
        var screenName: String?
    }

    package var localId: String
    package var phoneNumber: String?
    package var email: String?
    package var emailVerified: Bool
    package var displayName: String?
    var photoUrl: String?
    package var disabled: Bool
    package var providerUserInfo: [ProviderInfo]
    var validSince: String
    package var createdAt: String
    package var lastLoginAt: String?
    package var lastRefreshAt: String?
    package var customAttributes: String?
    /// The account's tenant, absent for the default tenant's (as Firebase answers).
    package var tenantId: String?
    var passwordHash: String?
    /// Only in an operator's export (``init(_:enrollments:exportingHash:)``).
    var salt: String?
    var passwordUpdatedAt: Double?
    var emailLinkSignin: Bool?
    package var mfaInfo: [MFAInfoJSON]?
    /// The account's passkeys (Identity Platform's `passkeyInfo`: `name`, `credentialId`), set by `accounts:lookup`.
    package var passkeyInfo: [PasskeyInfoJSON]?

    /// What production answers in place of a password hash (base64 of `REDACTED`).
    static let redactedHash = "UkVEQUNURUQ="

    /// The linked providers: `password` for an email (password or email link), `phone` for a number, then the
    /// account's federated identities with what their provider gave (`federatedId` is the raw ID, as production
    /// answers it).
    static func providers(of user: UserRecord, identities: [FederatedIdentityRecord] = []) -> [ProviderInfo] {
        var providers: [ProviderInfo] = []
        if let email = user.email, user.passwordHash != nil || user.emailLinkSignIn {
            providers.append(ProviderInfo(providerId: "password", rawId: email, email: email, federatedId: email))
        }
        if let phone = user.phoneNumber { providers.append(ProviderInfo(providerId: "phone", rawId: phone, phoneNumber: phone)) }
        return providers + federated(identities)
    }

    /// Federated identities as `providerUserInfo` entries.
    static func federated(_ identities: [FederatedIdentityRecord]) -> [ProviderInfo] {
        identities.map {
            ProviderInfo(
                providerId: $0.providerID, rawId: $0.rawID, phoneNumber: $0.phoneNumber, email: $0.email, federatedId: $0.rawID,
                displayName: $0.displayName, photoUrl: $0.photoURL, screenName: $0.screenName)
        }
    }

    /// An account as `accounts:lookup` shows it, with its second factors and federated identities; with
    /// `exportingHash` (an operator's `accounts:batchGet`), with its password hash and salt as Firebase exports them
    /// (websafe base64) instead of the redacted placeholder.
    init(
        _ user: UserRecord, enrollments: [MFAEnrollmentRecord] = [], identities: [FederatedIdentityRecord] = [], exportingHash: Bool = false
    ) {
        localId = user.localID
        phoneNumber = user.phoneNumber
        email = user.email
        emailVerified = user.emailVerified
        displayName = user.displayName
        photoUrl = user.photoURL
        disabled = user.disabled
        providerUserInfo = Self.providers(of: user, identities: identities)
        passwordHash = user.passwordHash == nil ? nil : Self.redactedHash
        if exportingHash, let stored = user.passwordHash, let parts = PasswordHash.exported(stored) {
            passwordHash = Self.websafeBase64(parts.hash)
            salt = Self.websafeBase64(parts.salt)
        }
        passwordUpdatedAt = user.passwordUpdatedAt.map { Double($0.millisecondsSince1970) }
        emailLinkSignin = user.emailLinkSignIn ? true : nil
        mfaInfo = enrollments.isEmpty ? nil : enrollments.map(MFAInfoJSON.full)
        validSince = String(user.validSince.secondsSince1970)
        createdAt = String(user.createdAt.millisecondsSince1970)
        lastLoginAt = user.lastLoginAt.map { String($0.millisecondsSince1970) }
        lastRefreshAt = user.lastRefreshAt.map(RFC3339.format)
        customAttributes = user.customAttributes
        tenantId = user.tenant.isDefault ? nil : user.tenant.rawValue
    }
}

extension AccountJSON {
    /// Bytes as Google's JSON writes a `bytes` field of this API: base64url with padding.
    static func websafeBase64(_ bytes: [UInt8]) -> String {
        let text = Base64URL.encode(bytes)
        return text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
    }
}
