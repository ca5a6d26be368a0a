public import Foundation

/// A user's details at one provider.
public protocol UserInfo: Sendable {
    /// The provider, such as `password`.
    var providerID: String { get }
    /// The user's ID at the provider.
    var uid: String { get }
    /// The display name.
    var displayName: String? { get }
    /// The photo URL.
    var photoURL: URL? { get }
    /// The email address.
    var email: String? { get }
    /// The phone number.
    var phoneNumber: String? { get }
}

/// One entry of `User.providerData`, from `providerUserInfo`; replaced whole when the profile is reloaded.
struct ProviderUserInfo: UserInfo, Codable {
    let providerID: String
    let uid: String
    let displayName: String?
    let photoURL: URL?
    let email: String?
    let phoneNumber: String?
}

/// When an account was created and last signed in.
public struct UserMetadata: Sendable, Codable {
    /// The last sign-in (`lastLoginAt`).
    public let lastSignInDate: Date?
    /// The creation (`createdAt`).
    public let creationDate: Date?
}

/// The cached profile of a user, as `accounts:lookup` gives it.
struct UserProfile: Sendable, Codable {
    var uid: String
    var email: String?
    var phoneNumber: String?
    var emailVerified = false
    var displayName: String?
    var photoURL: URL?
    var providerData: [ProviderUserInfo] = []
    var metadata = UserMetadata(lastSignInDate: nil, creationDate: nil)
    /// The enrolled second factors (absent in profiles stored before FlintAuth knew them).
    var mfaInfo: [StoredMultiFactorInfo]?
    /// The enrolled passkeys (absent in profiles stored before FlintAuth knew them).
    var passkeys: [PasskeyInfo]?
    /// The tenant the user signed in to (`Auth.tenantID` then), or the one `accounts:lookup` names.
    var tenantID: String?

    init(uid: String) { self.uid = uid }

    init(_ account: LookupResponse.Account) {
        uid = account.localId
        email = account.email
        phoneNumber = account.phoneNumber
        emailVerified = account.emailVerified ?? false
        displayName = account.displayName
        photoURL = account.photoUrl.flatMap(URL.init(string:))
        providerData = (account.providerUserInfo ?? []).map {
            ProviderUserInfo(
                providerID: $0.providerId, uid: $0.federatedId ?? $0.rawId ?? account.localId, displayName: $0.displayName,
                photoURL: $0.photoUrl.flatMap(URL.init(string:)), email: $0.email, phoneNumber: $0.phoneNumber)
        }
        metadata = UserMetadata(lastSignInDate: Self.date(account.lastLoginAt), creationDate: Self.date(account.createdAt))
        mfaInfo = (account.mfaInfo ?? []).compactMap(StoredMultiFactorInfo.init)
        passkeys = (account.passkeyInfo ?? []).map { PasskeyInfo(name: $0.name, credentialID: $0.credentialId) }
        tenantID = account.tenantId
    }

    private static func date(_ milliseconds: String?) -> Date? {
        milliseconds.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
    }
}
