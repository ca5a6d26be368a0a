import FlintCore
import FlintStore
import Hummingbird
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `accounts:verifyClient` (v1) and `relyingparty/verifyClient` (the iOS SDK's v3 path): the app registers its
/// APNs device token; the answer is a receipt, and the matching secret goes to the device in a silent push.
struct VerifyClientRequest: Decodable {
    /// The APNs device token, hex (FirebaseAuth sends it upper-case).
    var appToken: String?
    /// Whether the token is a sandbox (development) token.
    var isSandbox: Bool
}

/// The answer. FirebaseAuth needs both fields and `suggestedTimeout` as a string of seconds, or it crashes.
struct VerifyClientResponse: ResponseEncodable {
    var receipt: String
    var suggestedTimeout: String
}

extension AppVerifier {
    /// Seconds the client is told to wait for the push before it falls back to the web challenge.
    static let suggestedPushTimeout = 5
    /// `verifyClient` calls (each a push) one client IP may make per hour.
    static let verifyClientPerIPPerHour: Int64 = 60
    /// Bytes an APNs device token may have (Apple's are 32 today and documented as variable).
    static let appTokenLength = 8...100

    func verifyClient(_ wire: VerifyClientRequest, clientIP: String?) async throws -> VerifyClientResponse {
        guard let text = wire.appToken, !text.isEmpty else { throw AuthError.missingAppToken }
        guard let token = Hex.decode(text), Self.appTokenLength.contains(token.count) else {
            throw AuthError.invalidAppCredential.with(detail: "appToken must be the APNs device token in hexadecimal.")
        }
        guard let push else {
            throw AuthError.invalidAppCredential.with(detail: "This server cannot send silent pushes; use the web challenge.")
        }
        let now = node.clock.now()
        if let clientIP {
            let limit = Limit(key: .verifyClientCalls(clientIP: clientIP), max: Self.verifyClientPerIPPerHour, window: .seconds(3600))
            let over = try await node.store.write { tx in try await [limit].count(in: tx, now: now) }
            if over { throw AuthError.tooManyAttempts }
        }
        let ticket = AppVerificationTicket(
            purpose: .receipt, projectID: node.settings.projectID, issuedAt: now.wholeSecond,
            nonce: node.random.bytes(AppVerificationTicket.nonceLength))
        let receipt = try ticket.seal(key: secret.appVerificationKey)
        let receiptSecret = AppVerificationTicket.receiptSecret(forReceipt: receipt, key: secret.appVerificationKey)
        let payload: JSONValue = [
            "aps": ["content-available": .number(1)],
            "com.google.firebase.auth": ["receipt": .string(receipt), "secret": .string(receiptSecret)],
        ]
        let message = PushMessage(
            deviceToken: Hex.encode(token), sandbox: wire.isSandbox, payload: try Self.pushJSON(payload), createdAt: now)
        do {
            try await push.send(message)
        } catch {
            node.logger.warning("silent push failed", metadata: ["errorType": "\(type(of: error))"])
            throw AuthError.invalidAppCredential.with(detail: "The silent push could not be sent; use the web challenge.")
        }
        return VerifyClientResponse(receipt: receipt, suggestedTimeout: String(Self.suggestedPushTimeout))
    }

    private static func pushJSON(_ payload: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(payload), as: UTF8.self)
    }
}
