/// Why a provider's credential was refused, in words for `INVALID_IDP_RESPONSE : <detail>`, or — for the nonce —
/// Firebase's own `MISSING_OR_INVALID_NONCE`.
package struct ProviderTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Firebase code the refusal is answered with.
    package var code: String
    /// What was wrong, never a token or nonce value.
    package var detail: String

    /// An `INVALID_IDP_RESPONSE` refusal.
    package init(_ detail: String) {
        self.init(code: "INVALID_IDP_RESPONSE", detail: detail)
    }

    /// A refusal with its own code.
    package init(code: String, detail: String) {
        self.code = code
        self.detail = detail
    }

    /// A nonce problem (`MISSING_OR_INVALID_NONCE`).
    package static func nonce(_ detail: String) -> ProviderTokenError {
        ProviderTokenError(code: "MISSING_OR_INVALID_NONCE", detail: detail)
    }

    package var description: String { "\(code) : \(detail)" }

    /// The error answered to the client.
    package var authError: AuthError { AuthError(code: code, detail: detail) }
}
