package import Crypto

/// The `state` parameter of a provider authorization request started by the hosted handler (`/__/auth/handler`):
/// everything the sign-in needs later, sealed (AES-256-GCM, ``SealedToken``) so that any node can finish it without a
/// store. It names the provider, the app's session (SHA-256 hex of the session ID the SDK keeps and sends to
/// `signInWithIdp`), the event, where the browser goes back to, the PKCE verifier, the raw nonce and the tenant the
/// sign-in runs in. The provider hands it back with the code; it then travels inside the callback link to the app and
/// back in `requestUri`, where only a request in the same tenant may complete it.
package struct RedirectState: Sendable, Equatable {
    /// How long a started sign-in may take, from the handler to `signInWithIdp`.
    package static let lifetime: Duration = .seconds(900)

    /// Where the browser goes back to.
    package enum Target: Sendable, Equatable {
        /// An iOS app: its custom URL scheme (`<scheme>://firebaseauth/link?deep_link_id=…`).
        case app(scheme: String)
        /// A web page on an authorized domain, given the callback link in its query (a plain page).
        case web(redirectURL: String)
        /// The Firebase JS SDK's popup or redirect (`appName` in the start): the callback hands the auth event to the
        /// app's Flint iframe (popup) or leaves it for that iframe and returns to `redirectURL` (redirect); `apiKey` and
        /// `appName` name the app's storage key (`firebase:redirectEvent:<apiKey>:<appName>`).
        case sdk(apiKey: String, appName: String, redirectURL: String)
    }

    /// The provider (`google.com`, `apple.com`, `oidc.*`).
    package var providerID: String
    /// The lower-case SHA-256 hex of the app's session ID; empty when the start named none (a plain web page).
    package var sessionHash: String
    /// The SDK's event ID, echoed in the callback.
    package var eventID: String
    /// `signInWithRedirect` (iOS), or the web's `signInViaRedirect`, `signInViaPopup`, `linkViaPopup`, … echoed in the
    /// callback.
    package var authType: String
    package var target: Target
    /// The PKCE verifier of the authorization request.
    package var codeVerifier: String
    /// The raw nonce; the authorization request carries its SHA-256 hex.
    package var nonce: String
    /// When it stops being accepted.
    package var expiresAt: Instant
    /// What the provider's web flow keeps until its callback, sealed with the rest (``BuiltInProvider``: Microsoft's
    /// tenant, Twitter's request token secret); empty for most.
    package var providerData = ""
    /// The Identity Platform tenant the sign-in started in (the handler's `tid`, `createAuthUri`'s `tenantId`); empty for
    /// the project's own users. Its callback and `signInWithIdp` run in this tenant only.
    package var tenant = ""

    /// A new state valid for ``lifetime`` from `now`, with a fresh verifier and nonce from `random`.
    package init(
        providerID: String, sessionHash: String, eventID: String, authType: String, target: Target, tenant: String = "", random: any RandomSource,
        now: Instant
    ) {
        (self.providerID, self.sessionHash, self.eventID, self.authType, self.target) = (providerID, sessionHash, eventID, authType, target)
        self.tenant = tenant
        codeVerifier = Base64URL.encode(random.bytes(32))
        nonce = Base64URL.encode(random.bytes(24))
        expiresAt = now + Self.lifetime
    }

    /// The PKCE S256 challenge of ``codeVerifier``.
    package var codeChallenge: String { Base64URL.encode(Array(SHA256.hash(data: Array(codeVerifier.utf8)))) }

    /// Whether `sessionID` (the raw ID the SDK sends to `signInWithIdp`) is the one the sign-in started with.
    package func matches(sessionID: String?) -> Bool {
        guard !sessionHash.isEmpty else { return true }
        guard let sessionID, !sessionID.isEmpty else { return false }
        return constantTimeEquals(Array(ProviderNonceRule.sha256Hex(sessionID).utf8), Array(sessionHash.lowercased().utf8))
    }

    /// Seals the state.
    package func seal(key: SymmetricKey) throws -> String {
        var writer = PayloadWriter()
        writer.append(expiresAt.millisecondsSince1970)
        for field in [providerID, sessionHash, eventID, authType, codeVerifier, nonce] { writer.append(field) }
        switch target {
        case .app(let scheme): for field in ["app", scheme] { writer.append(field) }
        case .web(let url): for field in ["web", url] { writer.append(field) }
        case .sdk(let apiKey, let appName, let url): for field in ["sdk", url, apiKey, appName] { writer.append(field) }
        }
        // Both optional, at the end: a tenant's state carries the provider's data even when empty.
        if !providerData.isEmpty || !tenant.isEmpty { writer.append(providerData) }
        if !tenant.isEmpty { writer.append(tenant) }
        return try SealedToken.seal(writer.bytes, kind: .redirectState, key: key)
    }

    /// Opens a sealed state; `nil` when it is not one of ours or has expired.
    package init?(opening text: String, key: SymmetricKey, now: Instant) {
        guard let payload = SealedToken.open(text, kind: .redirectState, key: key) else { return nil }
        var reader = PayloadReader(payload)
        guard let expires = reader.int64(), let provider = reader.string(), let session = reader.string(), let event = reader.string(),
            let type = reader.string(), let verifier = reader.string(), let nonce = reader.string(), let kind = reader.string(),
            let place = reader.string()
        else { return nil }
        guard now < Instant(millisecondsSince1970: expires) else { return nil }
        switch kind {
        case "app": target = .app(scheme: place)
        case "web": target = .web(redirectURL: place)
        case "sdk":
            guard let apiKey = reader.string(), let appName = reader.string() else { return nil }
            target = .sdk(apiKey: apiKey, appName: appName, redirectURL: place)
        default: return nil
        }
        if !reader.isAtEnd {
            guard let data = reader.string() else { return nil }
            providerData = data
        }
        if !reader.isAtEnd {
            guard let tenant = reader.string(), !tenant.isEmpty, reader.isAtEnd else { return nil }
            self.tenant = tenant
        }
        (providerID, sessionHash, eventID, authType) = (provider, session, event, type)
        (codeVerifier, self.nonce, expiresAt) = (verifier, nonce, Instant(millisecondsSince1970: expires))
    }
}
