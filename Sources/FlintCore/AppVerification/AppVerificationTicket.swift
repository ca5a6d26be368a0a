package import Crypto

/// The sealed, stateless strings of app verification: the `receipt` `accounts:verifyClient` answers, the
/// `recaptchaToken` Flint's web challenge issues, and the puzzle on the challenge page.
///
/// Each is an AES-256-GCM ``SealedToken`` of the project, the issue time and 16 random bytes, so any node can check
/// one without a database read. What must happen at most a bounded number of times (a receipt's uses, a token's
/// single use, a puzzle's single solution) is counted on the store's shared counters, keyed by its purpose and
/// ``nonce`` (FlintStore's `CounterKey.appVerification`), which is exact across nodes and on both SQLite and
/// PostgreSQL.
package struct AppVerificationTicket: Sendable, Equatable {
    /// What the string is for; one kind never opens as another.
    package enum Purpose: Sendable, Equatable {
        /// A `verifyClient` receipt; its secret travels only in the silent push.
        case receipt
        /// A `recaptchaToken` from Flint's web challenge.
        case challengeToken
        /// The proof-of-work puzzle of the challenge page.
        case puzzle

        var kind: SealedToken.Kind {
            switch self {
            case .receipt: .appReceipt
            case .challengeToken: .challengeToken
            case .puzzle: .challengePuzzle
            }
        }
    }

    /// Bytes in a fresh ``nonce``.
    package static let nonceLength = 16

    /// What the string is for.
    package var purpose: Purpose
    /// The project it was issued for.
    package var projectID: String
    /// When it was issued (sealed as whole seconds).
    package var issuedAt: Instant
    /// 16 random bytes naming this one string (for counting its uses).
    package var nonce: [UInt8]

    /// Creates a ticket.
    package init(purpose: Purpose, projectID: String, issuedAt: Instant, nonce: [UInt8]) {
        self.purpose = purpose
        self.projectID = projectID
        self.issuedAt = issuedAt
        self.nonce = nonce
    }

    /// The string handed to the client.
    /// - Throws: `CryptoKitError` when `key` is not an AES key.
    package func seal(key: SymmetricKey) throws -> String {
        var writer = PayloadWriter()
        writer.append(issuedAt.secondsSince1970)
        writer.append(nonce)
        writer.append(projectID)
        return try SealedToken.seal(writer.bytes, kind: purpose.kind, key: key)
    }

    /// Opens a string made by ``seal(key:)`` for `purpose`; `nil` for anything else.
    package init?(opening text: String, purpose: Purpose, key: SymmetricKey) {
        guard let plain = SealedToken.open(text, kind: purpose.kind, key: key) else { return nil }
        var reader = PayloadReader(plain)
        guard let issuedAt = reader.int64(), let nonce = reader.data(), nonce.count == Self.nonceLength, let projectID = reader.string(),
            reader.isAtEnd
        else { return nil }
        self.init(purpose: purpose, projectID: projectID, issuedAt: Instant(secondsSince1970: issuedAt), nonce: nonce)
    }

    /// Whether the ticket is for `projectID` and was issued less than `lifetime` before `now` (and not in the future
    /// beyond a minute of clock skew between nodes; both counted in the whole seconds the ticket carries).
    package func isValid(projectID: String, now: Instant, lifetime: Duration) -> Bool {
        self.projectID == projectID && now.wholeSecond - issuedAt < lifetime && issuedAt - now.wholeSecond < .seconds(60)
    }
}

extension AppVerificationTicket {
    /// The secret of a receipt: HMAC-SHA256 of the receipt string under the app-verification key, base64url. It is
    /// derived rather than stored, so a node that did not answer `verifyClient` can check it; it reaches the client
    /// only inside the silent push, which APNs delivers only to the app on the device that registered the token.
    package static func receiptSecret(forReceipt receipt: String, key: SymmetricKey) -> String {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Array("receipt secret".utf8))
        mac.update(data: Array(receipt.utf8))
        return Base64URL.encode(mac.finalize())
    }

    /// Whether `secret` is the secret of `receipt` (constant time).
    package static func checkReceiptSecret(_ secret: String, receipt: String, key: SymmetricKey) -> Bool {
        constantTimeEquals(Array(secret.utf8), Array(receiptSecret(forReceipt: receipt, key: key).utf8))
    }
}
