import FlintCore
import FlintStore
import FlintTexts
import Hummingbird

/// `accounts:sendOobCode` (v1) and `relyingparty/getOobConfirmationCode` (the iOS SDK's v3 path).
package struct SendOobCodeRequest: Decodable {
    var requestType: OobRequestType?
    var email: String?
    /// `VERIFY_AND_CHANGE_EMAIL`: the address that replaces the account's email once the link is followed.
    var newEmail: String?
    var idToken: String?
    /// Flint extension: in a MANDATORY MFA project, a user who cannot get tokens before enrolling asks for the
    /// verification email with the sign-in's pending credential.
    var pendingCredential: String?
    var continueUrl: String?
    var canHandleCodeInApp: Bool
    var iOSBundleId: String?
    var androidPackageName: String?
    var androidInstallApp: Bool
    var dynamicLinkDomain: String?
    var linkDomain: String?
    var returnOobLink: Bool

    /// Checked for their types only.
    var iosBundleId: String?
    var androidMinimumVersion: String?

    private enum CodingKeys: String, CodingKey {
        case requestType, email, newEmail, idToken, continueUrl, canHandleCodeInApp, iOSBundleId, iosBundleId
        case androidPackageName, androidInstallApp, androidMinimumVersion, dynamicLinkDomain, linkDomain, returnOobLink
        case pendingCredential = "mfaPendingCredential"
    }
}

/// The answer: the address the link went to, and for an admin's `returnOobLink` the code and link themselves.
package struct SendOobCodeResponse: ResponseEncodable {
    var kind = "identitytoolkit#GetOobConfirmationCodeResponse"
    var email: String?
    var oobCode: String?
    var oobLink: String?
}

extension EmailLinkRoutes {
    func sendOobCode(_ request: Request, context: FlintRequestContext) async throws -> SendOobCodeResponse {
        let wire = try await context.clientBody(request, as: SendOobCodeRequest.self, projectID: flow.node.settings.projectID)
        let locales = request.answerLocales
        return try await flow.sendOobCode(wire, caller: context.caller, clientIP: context.clientIP, locales: locales)
    }
}

extension EmailLinkFlow {
    package func sendOobCode(_ wire: SendOobCodeRequest, caller: Caller, clientIP: String?, locales: [String]) async throws -> SendOobCodeResponse {
        let isAdmin = caller == .admin
        if wire.returnOobLink && !isAdmin { throw AuthError.insufficientPermission }
        guard let type = wire.requestType?.name, !type.isEmpty, type != "OOB_REQ_TYPE_UNSPECIFIED" else { throw AuthError.missingRequestType }
        // Known types this endpoint does not send (RECOVER_EMAIL goes out by itself when an email changes).
        guard let action = EmailAction(rawValue: type), action != .recoverEmail else { throw AuthError.invalidRequestType }
        let config = node.config.current
        let continueURL = try checkedContinueURL(wire.continueUrl, required: action == .signIn, authorized: config.authorizedDomains)
        let linkHost = try checkedLinkHost(wire, configured: config.linkDomains)
        if wire.androidInstallApp, wire.androidPackageName?.isEmpty ?? true { throw AuthError.missingAndroidPackageName }

        let email: String
        var localID: String?
        switch action {
        case .signIn:
            guard config.emailLinkSignInEnabled else { throw AuthError.operationNotAllowed }
            // An operator asking for the link itself (the Admin SDKs' `generate_sign_in_with_email_link`) may leave
            // it out, as production allows: the link is the operator's to hand over.
            guard wire.canHandleCodeInApp || (isAdmin && wire.returnOobLink) else {
                throw AuthError.invalidArgument("canHandleCodeInApp must be true for EMAIL_SIGNIN: the sign-in is completed in the app.")
            }
            email = try EmailAddress.wire(wire.email)
        case .passwordReset:
            email = try EmailAddress.wire(wire.email)
            guard let user = try await node.store.read({ try await $0.user(tenant: .scoped, email: email) }) else {
                if config.improvedEmailPrivacy && !isAdmin {
                    // An unknown address is counted like a known one, so the limits reveal nothing either.
                    let limits = emailLimits(email: email, clientIP: clientIP)
                    let now = node.clock.now()
                    if try await node.store.write({ tx in try await limits.count(in: tx, now: now) }) { throw AuthError.tooManyAttempts }
                    return SendOobCodeResponse(email: email)
                }
                throw AuthError.emailNotFound
            }
            localID = user.localID
        case .verifyEmail:
            let user: UserRecord
            if isAdmin, wire.idToken == nil {
                let address = try EmailAddress.wire(wire.email)
                guard let found = try await node.store.read({ try await $0.user(tenant: .scoped, email: address) }) else {
                    throw AuthError.emailNotFound
                }
                user = found
            } else if wire.idToken == nil, let text = wire.pendingCredential {
                let credential = try gate.openPendingCredential(text)
                guard let found = try await node.store.read({ try await $0.user(tenant: .scoped, localID: credential.localID) }) else {
                    throw AuthError.invalidMFAPendingCredential
                }
                user = found
            } else {
                user = try await sessions.authenticate(idToken: wire.idToken).1
            }
            guard let address = user.email else { throw AuthError.missingEmail }
            email = address
            localID = user.localID
        case .verifyAndChangeEmail:
            let target = try await emailChangeTarget(wire, isAdmin: isAdmin)
            email = target.email
            localID = target.localID
        case .recoverEmail:
            throw AuthError.invalidRequestType
        }
        let limits = isAdmin ? [] : emailLimits(email: email, clientIP: clientIP)
        let send = !wire.returnOobLink
        if send && codes.emailDeliveryUnavailable {
            throw AuthError.internalError.with(detail: "Email delivery is not configured on this server (flint serve --smtp).")
        }
        let apiKey: String
        if case .apiKey(let key) = caller { apiKey = key } else { apiKey = node.settings.apiKeys.first ?? "flint" }
        let request = ActionCodes.OobRequest(
            action: action, email: email, localID: localID, continueURL: continueURL?.text, linkHost: linkHost, apiKey: apiKey,
            locales: locales, send: send
        )
        let (code, link) = try await codes.issueOobCode(request, limits: limits)
        if wire.returnOobLink { return SendOobCodeResponse(email: email, oobCode: code, oobLink: link) }
        return SendOobCodeResponse(email: email)
    }

    /// `VERIFY_AND_CHANGE_EMAIL`: the signed-in user (a recent sign-in, as for changing the email directly) — or, for
    /// the operator without `idToken` (the Admin SDK's `generateVerifyAndChangeEmailLink`), the account whose current
    /// address is `email` — and the new address, which no other account may have. The link goes to the new address.
    private func emailChangeTarget(_ wire: SendOobCodeRequest, isAdmin: Bool) async throws -> (email: String, localID: String) {
        let user: UserRecord
        if isAdmin, wire.idToken == nil {
            let address = try EmailAddress.wire(wire.email)
            guard let found = try await node.store.read({ try await $0.user(tenant: .scoped, email: address) }) else { throw AuthError.userNotFound }
            user = found
        } else {
            let (token, signedIn) = try await sessions.authenticate(idToken: wire.idToken)
            try sessions.requireRecentSignIn(token)
            user = signedIn
        }
        guard let text = wire.newEmail, !text.isEmpty else { throw AuthError.missingNewEmail }
        guard let newEmail = EmailAddress.normalize(text) else { throw AuthError.invalidNewEmail }
        if let owner = try await node.store.read({ try await $0.user(tenant: .scoped, email: newEmail) }), owner.localID != user.localID {
            throw AuthError.emailExists
        }
        return (newEmail, user.localID)
    }

    /// Emails one address may be sent, and one client IP may ask for, per hour.
    func emailLimits(email: String, clientIP: String?) -> [Limit] {
        let hour: Duration = .seconds(3600)
        var limits = [Limit(key: .oobEmails(tenant: .scoped, to: email), max: node.settings.emailsPerAddressPerHour, window: hour)]
        if let clientIP { limits.append(Limit(key: .oobEmails(clientIP: clientIP), max: node.settings.emailsPerIPPerHour, window: hour)) }
        return limits
    }

    /// A `continueUrl` must be absolute and on an authorized domain.
    func checkedContinueURL(_ text: String?, required: Bool, authorized: [String]) throws(AuthError) -> ContinueURL? {
        guard let text, !text.isEmpty else {
            if required { throw AuthError.missingContinueURI }
            return nil
        }
        guard let url = ContinueURL(text) else { throw AuthError.invalidContinueURI }
        guard url.isAuthorized(by: authorized) else { throw AuthError.unauthorizedDomain }
        return url
    }

    /// `linkDomain` (or the older `dynamicLinkDomain`) picks one of the configured link domains.
    private func checkedLinkHost(_ wire: SendOobCodeRequest, configured: [String]) throws(AuthError) -> String? {
        if let domain = wire.linkDomain, !domain.isEmpty {
            guard configured.contains(domain.lowercased()) else { throw AuthError.invalidHostingLinkDomain }
            return domain.lowercased()
        }
        if let domain = wire.dynamicLinkDomain, !domain.isEmpty {
            guard configured.contains(domain.lowercased()) else { throw AuthError.invalidDynamicLinkDomain }
            return domain.lowercased()
        }
        return nil
    }
}

/// Firebase's `OobReqType`: the names the SDKs send, and the proto numbers the Android SDK sends instead.
struct OobRequestType: Decodable {
    /// The enum's values by number.
    static let names: [Int: String] = [
        0: "OOB_REQ_TYPE_UNSPECIFIED", 1: "PASSWORD_RESET", 2: "OLD_EMAIL_AGREE", 3: "NEW_EMAIL_ACCEPT", 4: "VERIFY_EMAIL",
        5: "RECOVER_EMAIL", 6: "EMAIL_SIGNIN", 7: "VERIFY_AND_CHANGE_EMAIL", 8: "REVERT_SECOND_FACTOR_ADDITION",
    ]

    /// The value's name; empty when the body sent an empty string (which counts as absent).
    var name: String

    /// Reads a `requestType` given as a name or a number.
    /// - Throws: `INVALID_ARGUMENT` (400) for a value that is not one of the enum's, without echoing it.
    init(from decoder: any Decoder) throws {
        switch try decoder.singleValueContainer().decode(JSONValue.self) {
        case .string(let text):
            guard text.isEmpty || Self.names.values.contains(text) else { throw Self.invalid }
            name = text
        case .number(let number):
            guard number.rounded() == number, number >= 0, number <= 8, let name = Self.names[Int(number)] else { throw Self.invalid }
            self.name = name
        default: throw Self.invalid
        }
    }

    private static let invalid = AuthError.invalidJSON(
        "Invalid value at 'request_type' (type.googleapis.com/google.cloud.identitytoolkit.v1.OobReqType)")
}
