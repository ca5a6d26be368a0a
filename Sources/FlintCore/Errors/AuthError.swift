/// An error answered to a client in Firebase's wire shape.
///
/// `message` is the exact Firebase string (for example `INVALID_CODE`); `detail`, when present, is appended
/// after `" : "` the way Firebase does (`INVALID_PHONE_NUMBER : Invalid format.`), which the SDKs split apart.
package struct AuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code of the answer.
    package var status: Int
    /// The Firebase error code, e.g. `INVALID_CODE`.
    package var code: String
    /// Optional human-readable detail appended after `" : "`.
    package var detail: String?
    /// The `errors[0].reason` value (`invalid`, `forbidden`, `notFound`, ...).
    package var reason: String
    /// The Google RPC status (`INVALID_ARGUMENT`, `PERMISSION_DENIED`...), when Firebase sends one.
    package var rpcStatus: String?

    /// Creates an error.
    package init(status: Int = 400, code: String, detail: String? = nil, reason: String = "invalid", rpcStatus: String? = nil) {
        self.status = status
        self.code = code
        self.detail = detail
        self.reason = reason
        self.rpcStatus = rpcStatus
    }

    /// The full `message` field: `CODE` or `CODE : detail`.
    package var message: String {
        guard let detail, !detail.isEmpty else { return code }
        return "\(code) : \(detail)"
    }

    package var description: String { message }

    /// The same error with a different detail text.
    package func with(detail: String) -> AuthError {
        var copy = self
        copy.detail = detail
        return copy
    }
}
