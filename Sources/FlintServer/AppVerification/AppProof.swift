import FlintCore
import FlintStore

/// The app proof a code request carries (`sendVerificationCode`'s body, `phoneEnrollmentInfo`, `phoneSignInInfo`):
/// a `verifyClient` receipt with the secret its silent push delivered, or a `recaptchaToken` from the web
/// challenge. The other proof fields Firebase defines (`captchaResponse`, `playIntegrityToken`, `safetyNetToken`)
/// are not Flint's and are ignored.
struct AppProof: Sendable, Equatable, Decodable {
    var iosReceipt: String?
    var iosSecret: String?
    var recaptchaToken: String?

    init(iosReceipt: String? = nil, iosSecret: String? = nil, recaptchaToken: String? = nil) {
        self.iosReceipt = iosReceipt
        self.iosSecret = iosSecret
        self.recaptchaToken = recaptchaToken
    }

    /// Reads the proof fields beside the others of a body (absent or empty fields count as absent).
    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        func field(_ key: CodingKeys) throws -> String? {
            guard let value = try fields.decodeIfPresent(String.self, forKey: key), !value.isEmpty else { return nil }
            return value
        }
        self.init(iosReceipt: try field(.iosReceipt), iosSecret: try field(.iosSecret), recaptchaToken: try field(.recaptchaToken))
    }

    private enum CodingKeys: CodingKey { case iosReceipt, iosSecret, recaptchaToken }
}

/// Enforcement: what `signIn.phoneNumber.appVerification` asks of a code request for a real number.
///
/// Receipts are bounded-use rather than single-use: FirebaseAuth keeps its receipt and secret and sends them with
/// every later code request, and only on `INVALID_APP_CREDENTIAL` fetches a new pair (one silent push, a few
/// seconds). A receipt therefore serves ``receiptMaxUses`` code requests within ``receiptLifetime``, which bounds
/// what one extracted credential can send. A web-challenge token serves exactly one request within
/// ``challengeTokenLifetime``. Uses are counted on the store's shared counters, so the bound holds across nodes.
extension AppVerifier {
    /// Seconds a receipt (and its secret) stays usable.
    static let receiptLifetime: Duration = .seconds(3600)
    /// Code requests one receipt may make.
    static let receiptMaxUses: Int64 = 5
    /// Seconds a web-challenge token stays usable.
    static let challengeTokenLifetime: Duration = .seconds(300)

    /// The policy in force: the config's, else `OFF` in dev mode (as the Firebase emulator) and `ENFORCE` in
    /// production.
    var appVerificationMode: ProjectConfig.AppVerificationMode {
        node.config.current.appVerification ?? (node.settings.devMode ? .off : .enforce)
    }

    /// Checks and spends one use of `proof` when the project enforces app verification.
    /// - Throws: `MISSING_APP_CREDENTIAL` (no proof, or half a receipt pair), `INVALID_APP_CREDENTIAL` (a receipt
    ///   that is not ours, expired, used up, for another project, or with the wrong secret), `CAPTCHA_CHECK_FAILED`
    ///   (a token that is not ours, expired, already used or for another project).
    func checkAppProof(_ proof: AppProof) async throws {
        guard appVerificationMode == .enforce else { return }
        let now = node.clock.now()
        let ticket: AppVerificationTicket
        let lifetime: Duration
        let maxUses: Int64
        let usedUp: AuthError
        if proof.iosReceipt != nil || proof.iosSecret != nil {
            guard let receipt = proof.iosReceipt, let secret = proof.iosSecret else {
                throw AuthError.missingAppCredential.with(detail: "iosReceipt and iosSecret must be sent together.")
            }
            let key = self.secret.appVerificationKey
            guard let opened = AppVerificationTicket(opening: receipt, purpose: .receipt, key: key),
                opened.isValid(projectID: node.settings.projectID, now: now, lifetime: Self.receiptLifetime),
                AppVerificationTicket.checkReceiptSecret(secret, receipt: receipt, key: key)
            else { throw AuthError.invalidAppCredential }
            (ticket, lifetime, maxUses) = (opened, Self.receiptLifetime, Self.receiptMaxUses)
            usedUp = AuthError.invalidAppCredential.with(detail: "This receipt has been used up; call verifyClient again.")
        } else if let token = proof.recaptchaToken {
            guard let opened = AppVerificationTicket(opening: token, purpose: .challengeToken, key: secret.appVerificationKey) else {
                throw AuthError.captchaCheckFailed.with(detail: "The app verification token is not valid.")
            }
            guard opened.isValid(projectID: node.settings.projectID, now: now, lifetime: Self.challengeTokenLifetime) else {
                throw AuthError.captchaCheckFailed.with(detail: "The app verification token has expired.")
            }
            (ticket, lifetime, maxUses) = (opened, Self.challengeTokenLifetime, 1)
            usedUp = AuthError.captchaCheckFailed.with(detail: "The app verification token has already been used.")
        } else {
            throw AuthError.missingAppCredential
        }
        let expiresAt = ticket.issuedAt + lifetime
        let uses = try await node.store.write { tx in
            try await tx.incrementCounter(key: .appVerification(ticket), windowStart: .epoch, expiresAt: expiresAt)
        }
        guard uses <= maxUses else { throw usedUp }
    }
}
