import Foundation

/// A credential from an OAuth or OpenID Connect provider (Sign in with Apple, Google, Facebook, GitHub, X, Microsoft,
/// Yahoo, `oidc.*`), as FirebaseAuth's
/// `OAuthCredential`: the provider's ID token (with the raw nonce its `nonce` claim hashes) or access token, the
/// pending token a server answer handed back to finish a sign-in it could not complete, or the response of a
/// hosted-handler sign-in (`OAuthProvider.getCredentialWith`) with its session ID.
public final class OAuthCredential: AuthCredential, @unchecked Sendable {
    // Immutable after init.

    /// The provider's OpenID Connect ID token.
    public let idToken: String?
    /// The provider's OAuth access token.
    public let accessToken: String?
    /// The provider's OAuth 1.0a token secret (X/Twitter); `nil` for OAuth 2 providers.
    public let secret: String?
    /// The raw nonce whose SHA-256 the ID token's `nonce` claim holds (Sign in with Apple, OIDC).
    let rawNonce: String?
    /// The user's name, which Apple hands to the app only at the first sign-in.
    let fullName: PersonNameComponents?
    /// A server-issued token standing for a verified provider credential (in the answer of a sign-in that asked for
    /// confirmation, or of a link refused because another account has the identity).
    let pendingToken: String?
    /// The session ID a hosted-handler sign-in started with (its SHA-256 went into the handler's URL).
    let sessionID: String?
    /// The provider's response the hosted handler sent back (the callback's `link`), sent as `requestUri`.
    let responseURL: String?

    init(
        providerID: String, idToken: String? = nil, rawNonce: String? = nil, accessToken: String? = nil, secret: String? = nil,
        fullName: PersonNameComponents? = nil, pendingToken: String? = nil, sessionID: String? = nil, responseURL: String? = nil
    ) {
        (self.idToken, self.rawNonce, self.accessToken, self.secret) = (idToken, rawNonce, accessToken, secret)
        (self.fullName, self.pendingToken, self.sessionID, self.responseURL) = (fullName, pendingToken, sessionID, responseURL)
        super.init(provider: providerID)
    }

    /// The credential a sign-in answer hands back (`oauthIdToken`, `oauthAccessToken`, `oauthTokenSecret`,
    /// `pendingToken`), or `nil` when it has none, as FirebaseAuth builds the updated credential of its errors.
    convenience init?(assertion: IdpAssertion, fallbackProviderID: String) {
        let provider = assertion.providerID(or: fallbackProviderID)
        guard assertion.oauthIdToken != nil || assertion.oauthAccessToken != nil || assertion.pendingToken != nil else { return nil }
        self.init(
            providerID: provider, idToken: assertion.oauthIdToken, accessToken: assertion.oauthAccessToken,
            secret: assertion.oauthTokenSecret, pendingToken: assertion.pendingToken)
    }

    /// The `verifyAssertion` request presenting this credential.
    func request(idToken session: String? = nil, autoCreate: Bool = true) -> VerifyAssertionRequest {
        var form = [("providerId", provider)]
        if let idToken { form.append(("id_token", idToken)) }
        if let rawNonce { form.append(("nonce", rawNonce)) }
        if let accessToken { form.append(("access_token", accessToken)) }
        if let secret { form.append(("oauth_token_secret", secret)) }
        if let user = Self.userJSON(fullName) { form.append(("user", user)) }
        var request = VerifyAssertionRequest(
            postBody: FormEncoding.encode(form), pendingToken: pendingToken, idToken: session, autoCreate: autoCreate)
        if let responseURL { (request.requestUri, request.sessionId) = (responseURL, sessionID) }
        return request
    }

    /// Apple's first-sign-in name as FirebaseAuth sends it: `{"name":{"firstName":…,"lastName":…}}`, keys sorted.
    static func userJSON(_ name: PersonNameComponents?) -> String? {
        var parts: [String: String] = [:]
        if let given = name?.givenName { parts["firstName"] = given }
        if let family = name?.familyName { parts["lastName"] = family }
        guard !parts.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(["name": parts])).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// `application/x-www-form-urlencoded` as `verifyAssertion`'s `postBody` carries it: every byte outside the
/// unreserved set percent-encoded, so a value may hold `&`, `=` or `+`.
enum FormEncoding {
    /// RFC 3986's unreserved characters: ASCII letters and digits and `-._~` (`CharacterSet.alphanumerics` would
    /// also leave every non-ASCII letter as it is).
    static let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"

    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// `text` with every byte of its UTF-8 outside the unreserved characters and `kept` percent-encoded.
    static func escape(_ text: String, keeping kept: String = "") -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: unreserved + kept)) ?? ""
    }
}
