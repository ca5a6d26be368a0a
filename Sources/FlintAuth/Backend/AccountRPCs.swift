/// A body that is only the signed-in user's ID token: `accounts:lookup` (`GetAccountInfoRequest`) and Flint's
/// `mfaRecoveryCodes:regenerate`.
struct IDTokenRequest: Encodable {
    var idToken: String
}

/// The answer of `accounts:lookup`: exactly one user.
struct LookupResponse: Decodable {
    struct ProviderInfo: Decodable {
        var providerId: String
        var federatedId: String?
        var rawId: String?
        var displayName: String?
        var photoUrl: String?
        var email: String?
        var phoneNumber: String?
    }

    struct Account: Decodable {
        var localId: String
        var email: String?
        var emailVerified: Bool?
        var displayName: String?
        var photoUrl: String?
        var phoneNumber: String?
        var createdAt: String?
        var lastLoginAt: String?
        var providerUserInfo: [ProviderInfo]?
        var mfaInfo: [MFAEnrollmentWire]?
        var passkeyInfo: [PasskeyInfoWire]?
        var tenantId: String?
    }

    var users: [Account]?
}

/// `accounts:delete` (`DeleteAccountRequest`).
struct DeleteAccountRequest: Encodable {
    var idToken: String
    var localId: String
}

/// An answer whose members the SDK does not read.
struct EmptyResponse: Decodable {}
