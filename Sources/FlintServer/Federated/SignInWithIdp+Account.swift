import FlintCore
import FlintStore

/// What a federated sign-in's transaction decided.
enum IdpDecision: Sendable {
    /// A session, a second-factor challenge or a failure, as every first factor ends.
    case session(SignInOutcome)
    /// The provider's email belongs to an account, but the provider does not vouch for it: no tokens; the account's
    /// ID (`localId`, as Firebase answers it) and its federated providers (`verifiedProvider`).
    case needConfirmation(localID: String, providers: [String])
}

extension FederatedSignIn {
    /// How long a spent nonce is remembered: longer than providers' ID tokens live (Apple's: 10 minutes).
    static let nonceMemory: Duration = .seconds(86_400)
}

extension FederatedSignIn {
    /// Finds or creates the account in one transaction, as Firebase with one account per email:
    /// - linking (`idToken`): the signed-in account gets the identity (`FEDERATED_USER_ID_ALREADY_LINKED` if another
    ///   account holds it, `EMAIL_EXISTS` if another account has the provider's email, `PROVIDER_ALREADY_LINKED` for
    ///   a second identity of the provider), and the provider's email, name and picture where it has none;
    /// - the account holding the identity signs in;
    /// - an account with the provider's email gets the identity when the provider verified the email. If the
    ///   account's own email was unverified, whoever set its password or number never proved the address: the
    ///   password, number, other providers and sessions go, as an email-link sign-in does. An unverified provider
    ///   email answers `needConfirmation`;
    /// - otherwise a new account with the provider's email, name and picture — unless `autoCreate` is false (the SDKs'
    ///   re-authentication), which answers `USER_NOT_FOUND`.
    ///
    /// A credential bound to a nonce is single-use: its nonce is spent in this transaction, whatever the outcome, and a
    /// second use is `MISSING_OR_INVALID_NONCE` (`Duplicate credential received.`).
    ///
    /// A SAML credential (``ProviderCredential``) spends its assertion ID the same way, remembered until `nonceUntil`
    /// when that is later, a replay answered `replay`; its `sessionClaims` (`firebase.sign_in_attributes`) go with the session.
    func decide(
        _ profile: ProviderProfile, providerID: String, linking: VerifiedIDToken?, autoCreate: Bool = true, nonce: String? = nil,
        nonceUntil: Instant? = nil, replay: AuthError = .duplicateCredential, sessionClaims: [String: JSONValue]? = nil,
        clientIP: String?, now: Instant
    ) async throws -> IdpDecision {
        let newID = node.random.alphanumericID()
        let key = FederatedIdentityKey(providerID: providerID, rawID: profile.rawID)
        let spentNonce = nonce.map { CounterKey.idpNonce(provider: providerID, nonce: $0) }
        let remembered = max(now + Self.nonceMemory, nonceUntil ?? now)
        return try await node.store.write { [self] tx -> IdpDecision in
            if let spentNonce {
                let uses = try await tx.incrementCounters([(spentNonce, Instant.epoch, remembered)])
                if (uses.first ?? 0) > 1 { return .session(.failed(replay)) }
            }
            let holder = try await tx.user(tenant: .scoped, federatedID: key)
            var user: UserRecord
            var isNew = false
            var takeover = false
            if let linking {
                switch try await sessions.tokenUser(linking, in: tx) {
                case .failure(let error): return .session(.failed(error))
                case .success(let account): user = account
                }
                // Linked already, to another account or to this one: Firebase answers the same.
                if holder != nil { return .session(.failed(.federatedUserIDAlreadyLinked)) }
                if let email = profile.email, let owner = try await tx.user(tenant: .scoped, email: email), owner.localID != user.localID {
                    return .session(.failed(.emailExists))
                }
                let linked = try await tx.federatedIdentities(tenant: .scoped, localID: user.localID)
                if linked.contains(where: { $0.providerID == providerID && $0.rawID != profile.rawID }) {
                    return .session(.failed(.providerAlreadyLinked))
                }
                if user.email == nil, let email = profile.email {
                    (user.email, user.emailVerified) = (email, profile.emailVerified)
                } else if let email = profile.email, email == user.email, profile.emailVerified {
                    // The provider verified the account's own address.
                    user.emailVerified = true
                }
            } else if let holder {
                guard let locked = try await tx.lockedUser(tenant: .scoped, localID: holder.localID) else { return .session(.failed(.userNotFound)) }
                user = locked
            } else if let email = profile.email, let owner = try await tx.lockedUser(tenant: .scoped, email: email) {
                guard profile.emailVerified else {
                    let providers = try await tx.federatedIdentities(tenant: .scoped, localID: owner.localID).map(\.providerID)
                    return .needConfirmation(localID: owner.localID, providers: providers)
                }
                user = owner
                takeover = !owner.emailVerified
                user.emailVerified = true
            } else {
                guard autoCreate else { return .session(.failed(.userNotFound)) }
                guard try await newAccounts.allows(clientIP, in: tx, now: now) else { return .session(.failed(.tooManyAttempts)) }
                user = UserRecord(tenant: .scoped, localID: newID, createdAt: now, validSince: now.wholeSecond)
                (user.email, user.emailVerified) = (profile.email, profile.emailVerified)
                isNew = true
            }
            if user.displayName == nil { user.displayName = profile.displayName }
            if user.photoURL == nil { user.photoURL = profile.photoURL }
            guard !user.disabled else { return .session(.failed(.userDisabled)) }
            let verdict = try await gate.firstFactorGate(tx, localID: isNew ? nil : user.localID, provider: providerID, linking: linking)
            if case .refuse(let error) = verdict.decision { return .session(.failed(error)) }
            let before = user
            if takeover {
                // The provider's profile replaces what whoever made the account without proving the email had set.
                (user.displayName, user.photoURL) = (profile.displayName, profile.photoURL)
                user.passwordHash = nil
                user.passwordUpdatedAt = nil
                user.phoneNumber = nil
                let others = try await tx.federatedIdentities(tenant: .scoped, localID: user.localID).map(\.providerID).filter { $0 != providerID }
                if !others.isEmpty { try await tx.unlinkFederatedIdentities(tenant: .scoped, localID: user.localID, providerIDs: others) }
                try await sessions.revokeSessions(of: &user, in: tx, now: now)
            }
            // A challenge is no sign-in yet: the second factor's finalize stamps it, as on the password route.
            if case .tokens = verdict.decision { verdict.stamp(&user, now: now) }
            if isNew { try await tx.insertUser(user) } else { try await tx.updateUser(user) }
            // What the provider gave last time stays where it gives nothing now (Apple gives the name only once); an
            // identity that did not change is not written again.
            let previous = isNew ? nil : try await tx.federatedIdentities(tenant: .scoped, localID: user.localID).first { $0.key == key }
            let identity = FederatedIdentityRecord(
                tenant: .scoped, localID: user.localID, providerID: providerID, rawID: profile.rawID, email: profile.email ?? previous?.email,
                displayName: profile.displayName ?? previous?.displayName, photoURL: profile.photoURL ?? previous?.photoURL,
                phoneNumber: previous?.phoneNumber, screenName: profile.screenName ?? previous?.screenName)
            if identity != previous { try await tx.linkFederatedIdentity(identity) }
            if !isNew { try await tx.auditAccountChanges(from: before, to: user, at: now) }
            return .session(
                try await gate.pass(
                    verdict, tx, user: user, provider: providerID, isNew: isNew, newIdentity: true, linking: linking, developerClaims: sessionClaims,
                    now: now))
        }
    }
}
