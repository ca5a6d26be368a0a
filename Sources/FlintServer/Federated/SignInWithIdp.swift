import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `accounts:signInWithIdp` (v1) and `relyingparty/verifyAssertion` (v3).
struct SignInWithIdpRequest: Decodable {
    /// Where the provider sent the user back; required and absolute (the SDKs send `http://localhost`). Its query or
    /// fragment may carry the provider's parameters (`id_token`, `access_token`, `code`) that `postBody` lacks.
    var requestUri: String?
    /// The provider's credential, form-encoded (``IdpPostBody``).
    var postBody: String?
    /// Checked for its type only.
    var returnSecureToken: Bool?
    /// Whether the answer carries the provider's tokens (`oauthIdToken`, `oauthAccessToken`).
    var returnIdpCredential: Bool?
    /// A signed-in user's token: the identity is linked to that user.
    var idToken: String?
    /// A pending token from an earlier answer (``IdpPendingToken``), standing for the credential it was issued for.
    var pendingToken: String?
    /// The session ID the SDK kept when it opened the hosted handler; its SHA-256 must be the one the sign-in
    /// started with.
    var sessionId: String?
    /// The tenant the sign-in runs in (``TenantMiddleware``): its providers, its accounts. A sign-in the hosted handler
    /// or `createAuthUri` started, and a pending token, complete only in the tenant they were made in.
    var tenantId: String?
    /// `false` when the SDKs re-authenticate: an identity no account holds is `USER_NOT_FOUND` instead of a new account.
    var autoCreate: Bool?
}

/// The answer: the provider's profile, then the session's tokens, a second-factor challenge, or — for an email of an
/// existing account that the provider does not vouch for — `needConfirmation` without tokens.
typealias SignInWithIdpResponse = SignInReply<IdpSignInFields>

/// `signInWithIdp`'s own fields (Firebase's `VerifyAssertionResponse`).
struct IdpSignInFields: Encodable, Sendable {
    var kind = "identitytoolkit#VerifyAssertionResponse"
    var federatedId: String
    var providerId: String
    var localId: String?
    var email: String?
    var emailVerified: Bool
    var firstName: String?
    var lastName: String?
    var fullName: String?
    var displayName: String?
    var photoUrl: String?
    /// The user's handle at the provider (Twitter's screen name, GitHub's login): the SDKs' `additionalUserInfo.username`.
    var screenName: String?
    /// The token's claims as a JSON text (the SDKs' `additionalUserInfo.profile`).
    var rawUserInfo: String
    var oauthIdToken: String?
    var oauthAccessToken: String?
    /// OAuth 1.0a's token secret (Twitter), with `oauthAccessToken`.
    var oauthTokenSecret: String?
    var isNewUser: Bool?
    var needConfirmation: Bool?
    /// With `needConfirmation`: the providers the existing account can sign in with.
    var verifiedProvider: [String]?
    /// With `returnIdpCredential`, a linking conflict is answered 200 with its code here and the provider's
    /// credential beside it, from which the SDKs build the error's updated credential.
    var errorMessage: String?
    /// With `needConfirmation` or an `errorMessage`: the verified identity, sealed, to present again (`pendingToken`)
    /// once the user signed in to the account another way.
    var pendingToken: String?
}

extension FederatedSignIn {
    /// The linking conflicts answered 200 with `errorMessage` when the request asks for the provider's credential.
    static let answeredWithCredential: Set<String> = ["FEDERATED_USER_ID_ALREADY_LINKED", "EMAIL_EXISTS"]

    /// Verifies the provider's credential and signs in: the account holding the identity, the account whose email the
    /// provider verified (which it links to), a new account, or — with `idToken` — the signed-in account, which the
    /// identity is linked to.
    func signInWithIdp(_ wire: SignInWithIdpRequest, clientIP: String?) async throws -> SignInWithIdpResponse {
        guard let uri = wire.requestUri, !uri.isEmpty else { throw AuthError.missingRequestURI }
        guard IdpPostBody.isAbsoluteURI(uri) else { throw AuthError.invalidRequestURI }
        // The provider's parameters may come back on `requestUri` (an implicit-flow callback) rather than in `postBody`.
        let body = IdpPostBody(parsing: wire.postBody ?? "").filled(fromRequestURI: uri)
        let now = node.clock.now()
        var pending: IdpPendingToken?
        if let text = wire.pendingToken, !text.isEmpty {
            guard let token = IdpPendingToken(opening: text, key: secret.idpKey, now: now) else { throw AuthError.invalidPendingToken }
            pending = token
        }
        // No credential of its own (FirebaseAuth still names the provider): the callback link of a sign-in the hosted
        // handler started (``FederatedRedirect``).
        let hasCredential = [body.idToken, body.accessToken, body.code].contains { !($0 ?? "").isEmpty }
        // A SAML sign-in: the IdP's response the handler received, with the RelayState the start sealed.
        let saml = hasCredential || pending != nil ? nil : try samlCallback(postBody: wire.postBody, requestUri: uri, now: now)
        let redirect =
            hasCredential || pending != nil || saml != nil
            ? nil : try redirectState(requestUri: uri, providerNamed: body.providerID != nil, now: now)
        if let started = redirect?.providerID ?? saml?.state.providerID, let named = body.providerID, named != started {
            throw AuthError.invalidIdpResponse("The providerId is not the one the sign-in started with.")
        }
        guard let providerID = body.providerID ?? pending?.providerID ?? redirect?.providerID ?? saml?.state.providerID, !providerID.isEmpty
        else {
            throw AuthError.invalidCredentialOrProviderID.with(detail: "Invalid IdP response/credential: the postBody names no providerId.")
        }
        if let pending, pending.providerID != providerID || pending.tenant != TenantID.scoped.rawValue { throw AuthError.invalidPendingToken }
        // A provider the request's tenant (or the project) has not configured, or one Flint does not verify: as Firebase answers.
        guard let provider = node.config.current.identityProvider(providerID) else {
            throw AuthError.operationNotAllowed.with(detail: "The identity provider configuration is not found.")
        }
        guard provider.enabled else { throw AuthError.operationNotAllowed.with(detail: "The identity provider configuration is disabled.") }
        let linking = try wire.idToken.map { token throws(AuthError) in try sessions.verifyIDToken(token) }
        // A pending token stands for a credential verified before; otherwise the postBody's is verified now.
        let proof =
            if let pending {
                ProviderCredential(claims: pending.claims, profile: ProviderProfile(claims: pending.claims))
            } else if let saml {
                try samlCredential(saml, sessionID: wire.sessionId)
            } else if let redirect {
                try await redirectCredential(uri, state: redirect, sessionID: wire.sessionId, provider: provider)
            } else {
                try await credential(body, requestUri: uri, provider: provider)
            }
        let profile = proof.profile
        let rawUserInfo = String(decoding: JSONValue.object(proof.claims).serialized(), as: UTF8.self)
        // What the project's blocking functions are told of the provider.
        let facts = ProviderFacts(
            rawUserInfo: rawUserInfo, idToken: proof.oauthIdToken, accessToken: proof.oauthAccessToken, tokenSecret: proof.oauthTokenSecret,
            signInAttributes: proof.signInAttributes)
        let sessionClaims = proof.signInAttributes.map { Sessions.signInAttributesClaims($0) }
        let outcome = try await ProviderFacts.$current.withValue(facts) {
            try await decide(
                profile, providerID: providerID, linking: linking, autoCreate: wire.autoCreate ?? true, nonce: proof.nonce,
                nonceUntil: proof.nonceUntil, replay: proof.replayError, sessionClaims: sessionClaims, clientIP: clientIP, now: now)
        }
        var fields = IdpSignInFields(
            federatedId: Self.federatedID(providerID: providerID, rawID: profile.rawID), providerId: providerID,
            email: profile.email, emailVerified: profile.emailVerified, firstName: profile.firstName, lastName: profile.lastName,
            fullName: profile.displayName, displayName: profile.displayName, photoUrl: profile.photoURL,
            screenName: profile.screenName, rawUserInfo: rawUserInfo)
        if wire.returnIdpCredential == true {
            (fields.oauthIdToken, fields.oauthAccessToken, fields.oauthTokenSecret) = (
                proof.oauthIdToken, proof.oauthAccessToken, proof.oauthTokenSecret
            )
        }
        switch outcome {
        case .needConfirmation(let localID, let providers):
            fields.localId = localID
            fields.needConfirmation = true
            fields.verifiedProvider = providers
            fields.pendingToken = try pendingToken(providerID: providerID, profile: profile, now: now)
            return SignInWithIdpResponse(fields: fields)
        case .session(.failed(let error)) where wire.returnIdpCredential == true && Self.answeredWithCredential.contains(error.code):
            fields.errorMessage = error.code
            fields.pendingToken = try pendingToken(providerID: providerID, profile: profile, now: now)
            return SignInWithIdpResponse(fields: fields)
        case .session(let session):
            // A second-factor challenge seals the provider's facts for the `beforeSignIn` function at finalize.
            let (user, isNew, answer) = try ProviderFacts.$current.withValue(facts) {
                try gate.answer(session, provider: providerID, linking: linking, now: now)
            }
            fields.localId = user.localID
            fields.isNewUser = isNew
            return SignInWithIdpResponse(fields: fields, session: answer)
        }
    }

    /// `federatedId` as Firebase answers it: Google's issuer and ID, a built-in provider's own form, else the raw ID.
    static func federatedID(providerID: String, rawID: String) -> String {
        if providerID == "google.com" { return "https://accounts.google.com/\(rawID)" }
        return BuiltInProviders.named(providerID)?.federatedID(rawID: rawID) ?? rawID
    }

    /// A sealed pending token for a verified identity.
    private func pendingToken(providerID: String, profile: ProviderProfile, now: Instant) throws -> String {
        do {
            return try IdpPendingToken(providerID: providerID, profile: profile, tenant: TenantID.scoped.rawValue, now: now).seal(key: secret.idpKey)
        } catch {
            node.logger.error("pending token sealing failed", metadata: ["errorType": "\(type(of: error))"])
            throw AuthError.internalError
        }
    }
}
