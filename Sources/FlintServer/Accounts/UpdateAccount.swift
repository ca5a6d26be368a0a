package import FlintCore
import FlintStore
import FlintTexts
import Hummingbird

/// `accounts:update` (v1), `relyingparty/setAccountInfo` (v3), and the admin form. Three callers:
/// a user with an `idToken` (email, password, profile, unlinking), anyone holding an `oobCode` (email
/// verification, or a password reset with `password`), and an operator naming `localId`.
package struct UpdateAccountRequest: Decodable {
    var idToken: String?
    var oobCode: String?
    var localId: String?
    var email: String?
    var password: String?
    var displayName: String?
    var photoUrl: String?
    var deleteAttribute: [String]
    var deleteProvider: [String]
    /// Credential IDs of passkeys to withdraw (Identity Platform's `deletePasskey`); withdrawing one ends the account's
    /// other sessions, as any credential change does.
    var deletePasskey: [String]
    var validSince: String?
    // Operator only.
    var emailVerified: Bool?
    var disableUser: Bool?
    var phoneNumber: String?
    var customAttributes: String?
    /// The account's second factors from now on (phone factors; a TOTP factor can only be kept).
    var mfa: MFAUpdateRequest?
    /// A federated identity to link (operator only): replaces the account's identity at the same provider.
    var linkProviderUserInfo: LinkedProvider?

    /// Checked for its type only: Flint always answers with tokens where Firebase would.
    var returnSecureToken: Bool?

    /// Fields only an operator may send.
    var hasOperatorFields: Bool {
        emailVerified != nil || disableUser != nil || phoneNumber != nil || customAttributes != nil || mfa != nil
            || linkProviderUserInfo != nil
    }
}

/// `linkProviderUserInfo`: a provider's ID for the user and what the provider gave (the Admin SDKs'
/// `provider_to_link` / `providerToLink`).
struct LinkedProvider: Decodable {
    var providerId: String?
    var rawId: String?
    var email: String?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
    var screenName: String?

    /// The identity to store for `localID`: `MISSING_PROVIDER_ID` / `MISSING_RAW_ID` as Firebase answers them;
    /// `password` and `phone` are the account's own fields, not identities to link.
    func identity(localID: String) throws(AuthError) -> FederatedIdentityRecord {
        guard let providerId, !providerId.isEmpty else { throw AuthError(code: "MISSING_PROVIDER_ID") }
        guard let rawId, !rawId.isEmpty else { throw AuthError(code: "MISSING_RAW_ID") }
        if providerId == "password" || providerId == "phone" { throw AuthError.invalidProviderID }
        func given(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        return FederatedIdentityRecord(
            tenant: .scoped, localID: localID, providerID: providerId, rawID: rawId, email: given(email), displayName: given(displayName),
            photoURL: given(photoUrl), phoneNumber: given(phoneNumber), screenName: given(screenName))
    }
}

package struct UpdateAccountResponse: ResponseEncodable {
    var kind = "identitytoolkit#SetAccountInfoResponse"
    var localId: String
    var email: String?
    var emailVerified: Bool
    var displayName: String?
    var photoUrl: String?
    var passwordHash: String?
    var providerUserInfo: [AccountJSON.ProviderInfo]
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?

    init(_ user: UserRecord, identities: [FederatedIdentityRecord] = [], tokens: SessionTokens? = nil) {
        localId = user.localID
        email = user.email
        emailVerified = user.emailVerified
        displayName = user.displayName
        photoUrl = user.photoURL
        passwordHash = user.passwordHash == nil ? nil : AccountJSON.redactedHash
        // The account's own providers carry its profile; a federated one what its provider gave.
        let own = AccountJSON.providers(of: user).map { provider in
            var provider = provider
            (provider.displayName, provider.photoUrl) = (user.displayName, user.photoURL)
            return provider
        }
        providerUserInfo = own + AccountJSON.federated(identities)
        idToken = tokens?.idToken
        refreshToken = tokens?.refreshToken
        expiresIn = tokens?.expiresIn
    }
}

extension AccountRoutes {
    func update(_ request: Request, context: FlintRequestContext) async throws -> UpdateAccountResponse {
        let wire = try await context.clientBody(request, as: UpdateAccountRequest.self, projectID: accounts.node.settings.projectID)
        let locales = request.answerLocales
        if let code = wire.oobCode, wire.idToken == nil, !(context.isAdmin && wire.localId != nil) {
            return try await accounts.codes.applyActionCode(code, password: wire.password, locales: locales)
        }
        if context.isAdmin, wire.idToken == nil {
            guard let id = wire.localId, !id.isEmpty else { throw AuthError.missingLocalID }
            AuditOrigin.current.notes.subject = id
            return try await accounts.updateAccount(wire, localID: id, token: nil)
        }
        guard wire.idToken != nil else { throw AuthError.invalidRequestType }
        if wire.hasOperatorFields { throw AuthError.insufficientPermission }
        let token = try accounts.sessions.verifyIDToken(wire.idToken)
        // Changing how one signs in needs a recent sign-in, as Firebase's requires-recent-login.
        if wire.password != nil || wire.email != nil || !wire.deleteProvider.isEmpty || !wire.deletePasskey.isEmpty {
            try accounts.sessions.requireRecentSignIn(token)
        }
        return try await accounts.updateAccount(wire, localID: token.userID, token: token, locales: locales)
    }
}

extension AccountsFlow {
    /// Applies profile, email, password, unlinking and (operator) linking changes. An email or password change (or
    /// `validSince`) revokes earlier sessions; a user then gets fresh tokens in the answer. A user's own email change
    /// sends the old address a `RECOVER_EMAIL` link. Linking an identity another account holds is
    /// `FEDERATED_USER_ID_ALREADY_LINKED`, and nothing of the update is kept.
    package func updateAccount(
        _ wire: UpdateAccountRequest, localID: String, token: VerifiedIDToken?, locales: [String] = []
    ) async throws -> UpdateAccountResponse {
        let email = try wire.email.map { text throws(AuthError) in try EmailAddress.wire(text) }
        // A user's own change meets the enforced policy and the breached-password check; an operator's is held to neither.
        let rules = token == nil ? NewPasswordRules() : node.config.current.newPasswordRules
        let hash = try await passwords.strongHash(wire.password, rules: rules)
        let phone = try wire.phoneNumber.map { text throws(AuthError) in text.isEmpty ? "" : try PhoneNumber(wire: text).e164 }
        let claims = try wire.customAttributes.map { text throws(AuthError) in try Self.checkCustomClaims(text) }
        let factors = try wire.mfa.map { mfa throws(AuthError) in try OperatorEnrollments(mfa.enrollments, random: node.random) }
        let link = try wire.linkProviderUserInfo.map { provider throws(AuthError) in try provider.identity(localID: localID) }
        let unlinked = wire.deleteProvider.filter { $0 != "phone" && $0 != "password" }
        if let since = wire.validSince, Int64(since) == nil || since.hasPrefix("-") {
            throw AuthError.invalidJSON("Invalid value at 'valid_since' (TYPE_INT64)")
        }
        let known = ["USER_ATTRIBUTE_NAME_UNSPECIFIED", "DISPLAY_NAME", "PHOTO_URL", "PASSWORD", "EMAIL", "PHONE_NUMBER"]
        for attribute in wire.deleteAttribute where !known.contains(attribute) {
            throw AuthError.invalidArgument("Unsupported deleteAttribute value.")
        }
        let now = node.clock.now()
        let result = try await node.store.write { [self] tx in
            try await update(
                wire, localID: localID, token: token, email: email, hash: hash, phone: phone, claims: claims, factors: factors, link: link,
                unlinked: unlinked, in: tx, now: now)
        }
        let (user, refresh, replacedEmail, identities) = try result.get()
        if token != nil, let replacedEmail { await codes.sendEmailRecovery(to: replacedEmail, localID: user.localID, locales: locales) }
        guard let refresh, let token else { return UpdateAccountResponse(user, identities: identities) }
        let tokens = try sessions.sessionTokens(
            user: user, refreshToken: refresh, provider: token.signInProvider ?? "password", now: now, secondFactor: SecondFactorClaim(token),
            authTime: token.authTime)
        return UpdateAccountResponse(user, identities: identities, tokens: tokens)
    }

    /// The update's transaction, with the values checked before it.
    /// - Returns: the account, a new refresh token (a user's own update that revoked), the email it replaced, its identities.
    private func update(
        _ wire: UpdateAccountRequest, localID: String, token: VerifiedIDToken?, email: String?, hash: String?, phone: String?, claims: String??,
        factors: OperatorEnrollments?, link: FederatedIdentityRecord?, unlinked: [String], in tx: some Writes, now: Instant
    ) async throws -> Result<(UserRecord, String?, String?, [FederatedIdentityRecord]), AuthError> {
        var user: UserRecord
        if let token {
            switch try await sessions.tokenUser(token, in: tx) {
            case .failure(let error): return .failure(error)
            case .success(let found): user = found
            }
        } else {
            guard let found = try await tx.lockedUser(tenant: .scoped, localID: localID) else { return .failure(.userNotFound) }
            user = found
        }
        let before = user
        // A credential change (or disabling) revokes; so does `validSince` sent with a user's own ID token.
        var revoke = token != nil && wire.validSince != nil
        var replacedEmail: String?
        if let email, email != user.email {
            replacedEmail = user.email
            if let owner = try await tx.user(tenant: .scoped, email: email), owner.localID != user.localID { return .failure(.emailExists) }
            user.email = email
            user.emailVerified = false
            user.emailLinkSignIn = false
            revoke = true
        }
        if let hash {
            user.passwordHash = hash
            user.passwordUpdatedAt = now
            revoke = true
        }
        if let name = wire.displayName { user.displayName = name }
        if let photo = wire.photoUrl { user.photoURL = photo }
        for attribute in wire.deleteAttribute {
            switch attribute {
            case "DISPLAY_NAME": user.displayName = nil
            case "PHOTO_URL": user.photoURL = nil
            case "PASSWORD":
                revoke = revoke || user.passwordHash != nil
                user.passwordHash = nil
            case "EMAIL": (user.email, user.emailVerified, user.emailLinkSignIn) = (nil, false, false)
            case "PHONE_NUMBER": user.phoneNumber = nil
            default: break
            }
        }
        for provider in wire.deleteProvider {
            switch provider {
            case "phone": user.phoneNumber = nil
            case "password":
                revoke = revoke || user.passwordHash != nil
                (user.email, user.emailVerified, user.emailLinkSignIn, user.passwordHash) = (nil, false, false, nil)
            default: break
            }
        }
        if let verified = wire.emailVerified {
            if verified, !before.emailVerified, user.email != nil, user.email == before.email {
                // The operator vouches for the account's address (sent again or not): identities attached while
                // nobody had proven it go, and the sessions end (with the update's other revocations, once).
                if try await Sessions.ownerProvedEmail(of: &user, cleanup: .identities, in: tx) { revoke = true }
            }
            user.emailVerified = verified
        }
        if let disabled = wire.disableUser {
            // Disabling ends the account's sessions: re-enabling it later does not bring them back.
            revoke = revoke || (disabled && !user.disabled)
            user.disabled = disabled
        }
        if let link, let owner = try await tx.user(tenant: .scoped, federatedID: link.key), owner.localID != user.localID {
            return .failure(.federatedUserIDAlreadyLinked)
        }
        if let phone { user.phoneNumber = phone.isEmpty ? nil : phone }
        if let claims { user.customAttributes = claims }
        var newFactors: [MFAEnrollmentRecord]?
        if let factors {
            let existing = try await tx.mfaEnrollments(tenant: .scoped, localID: user.localID)
            switch factors.records(localID: user.localID, existing: existing, now: now) {
            case .failure(let error): return .failure(error)
            case .success(let records):
                // Adding or removing a factor ends the account's sessions, as a user's own (un)enrolment does.
                revoke = revoke || OperatorEnrollments.changesFactors(from: existing, to: records)
                newFactors = records
            }
        }
        if try await withdrawPasskeys(wire.deletePasskey, of: user.localID, in: tx, now: now) { revoke = true }
        if revoke { try await sessions.revokeSessions(of: &user, in: tx, now: now) }
        if token == nil, let since = wire.validSince.flatMap(Int64.init).map(Instant.init(secondsSince1970:)) {
            try await sessions.revokeSessions(of: &user, before: since, in: tx, now: now)
        }
        // A re-issued session mints tokens: `lastRefreshAt` rides on the account's own write.
        if revoke, token != nil { user.lastRefreshAt = now }
        do {
            try await tx.updateUser(user)
            if let newFactors {
                try await tx.replaceMFAEnrollments(tenant: .scoped, localID: user.localID, with: newFactors)
                if newFactors.isEmpty { try await tx.replaceRecoveryCodes(tenant: .scoped, localID: user.localID, hashes: [], now: now) }
            }
            if !unlinked.isEmpty { try await tx.unlinkFederatedIdentities(tenant: .scoped, localID: user.localID, providerIDs: unlinked) }
            if let link { try await tx.linkFederatedIdentity(link) }
        } catch StoreError.conflict(let taken) {
            // Thrown, not returned: nothing of this update is kept.
            throw AuthError(taken)
        }
        try await tx.auditAccountChanges(from: before, to: user, at: now)
        let identities = try await tx.federatedIdentities(tenant: .scoped, localID: user.localID)
        guard revoke, let token else { return .success((user, nil, replacedEmail, identities)) }
        let provider = token.signInProvider ?? "password"
        let refresh = try await sessions.storeRefreshToken(
            tx, user: user, provider: provider, now: now, secondFactor: SecondFactorClaim(token), authTime: token.authTime)
        return .success((user, refresh, replacedEmail, identities))
    }

    /// Developer claims: a JSON object of at most 1000 bytes (UTF-8) without reserved names.
    /// - Returns: what to store: `nil` for an empty text or an object without members (the Admin SDKs clear claims
    ///   with `{}`), else the text as sent.
    @discardableResult
    static func checkCustomClaims(_ text: String) throws(AuthError) -> String? {
        guard !text.isEmpty else { return nil }
        guard text.utf8.count <= 1000 else { throw AuthError(code: "CLAIMS_TOO_LARGE") }
        guard let value = try? JSONValue(parsing: Array(text.utf8)), let object = value.objectValue else {
            throw AuthError(code: "INVALID_CLAIMS")
        }
        if let reserved = object.keys.sorted().first(where: { IDTokenClaims.reservedClaims.contains($0) }) {
            throw AuthError(code: "FORBIDDEN_CLAIM", detail: reserved)
        }
        return object.isEmpty ? nil : text
    }
}
