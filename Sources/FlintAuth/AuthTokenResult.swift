public import Foundation

/// An ID token and the claims read from it.
public final class AuthTokenResult: @unchecked Sendable {
    // Immutable; `claims` holds JSONSerialization's value types only.

    /// The ID token (a JWT).
    public let token: String
    /// When the token expires (`exp`).
    public let expirationDate: Date
    /// When the user authenticated (`auth_time`).
    public let authDate: Date
    /// When the token was issued (`iat`).
    public let issuedAtDate: Date
    /// How the user signed in (`firebase.sign_in_provider`), such as `password` or `emailLink`.
    public let signInProvider: String
    /// The second factor of the sign-in (`firebase.sign_in_second_factor`), or `""`.
    public let signInSecondFactor: String
    /// The whole payload.
    public let claims: [String: Any]

    /// Decodes `token`'s payload; throws `malformedJWT` when it is not a JWT with `exp`, `auth_time`, `iat` and
    /// `firebase.sign_in_provider`.
    init(token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Self.base64URLDecoded(String(parts[1])),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let exp = (claims["exp"] as? NSNumber)?.doubleValue,
            let authTime = (claims["auth_time"] as? NSNumber)?.doubleValue,
            let iat = (claims["iat"] as? NSNumber)?.doubleValue,
            let firebase = claims["firebase"] as? [String: Any],
            let provider = firebase["sign_in_provider"] as? String
        else { throw AuthErrorCode.malformedJWT.error() }
        self.token = token
        self.claims = claims
        expirationDate = Date(timeIntervalSince1970: exp)
        authDate = Date(timeIntervalSince1970: authTime)
        issuedAtDate = Date(timeIntervalSince1970: iat)
        signInProvider = provider
        signInSecondFactor = firebase["sign_in_second_factor"] as? String ?? ""
    }

    private static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
