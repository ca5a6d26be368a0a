package import HTTPTypes

/// An error answered to a client in Firebase's wire shape.
///
/// Its ``Kind`` is what Firebase's SDKs tell errors apart by (status, code, reason, RPC status); `detail`, when
/// present, is appended to the code after `" : "` the way Firebase does (`INVALID_PHONE_NUMBER : Invalid format.`),
/// which the SDKs split apart. Two errors of one kind are equal whatever their detail texts say, so code and tests
/// compare kinds, never words. Every kind Flint answers is in the catalogue (`AuthError+Catalogue.swift`).
package struct AuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a client tells it apart.
    package struct Kind: Hashable, Sendable {
        /// The HTTP status of the answer.
        package let status: HTTPResponse.Status
        /// The Firebase error code, e.g. `INVALID_CODE`.
        package let code: String
        /// The `errors[0].reason` value (`invalid`, `forbidden`, `notFound`, ...).
        package let reason: String
        /// The Google RPC status (`INVALID_ARGUMENT`, `PERMISSION_DENIED`...), when Firebase sends one.
        package let rpcStatus: String?

        package static func == (lhs: Kind, rhs: Kind) -> Bool {
            (lhs.status.code, lhs.code, lhs.reason, lhs.rpcStatus) == (rhs.status.code, rhs.code, rhs.reason, rhs.rpcStatus)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(status.code)
            hasher.combine(code)
        }
    }

    /// What went wrong.
    package let kind: Kind
    /// Optional human-readable detail appended after `" : "`.
    package private(set) var detail: String?

    /// Creates an error of a kind made from its parts.
    package init(
        status: HTTPResponse.Status = .badRequest, code: String, detail: String? = nil, reason: String = "invalid", rpcStatus: String? = nil
    ) {
        self.kind = Kind(status: status, code: code, reason: reason, rpcStatus: rpcStatus)
        self.detail = detail
    }

    /// The HTTP status of the answer.
    package var status: HTTPResponse.Status { kind.status }
    /// The Firebase error code, e.g. `INVALID_CODE`.
    package var code: String { kind.code }
    /// The `errors[0].reason` value.
    package var reason: String { kind.reason }
    /// The Google RPC status, when Firebase sends one.
    package var rpcStatus: String? { kind.rpcStatus }

    /// The full `message` field: `CODE` or `CODE : detail`.
    package var message: String {
        guard let detail, !detail.isEmpty else { return code }
        return "\(code) : \(detail)"
    }

    package var description: String { message }

    /// Errors of one kind are equal; their details may differ.
    package static func == (lhs: AuthError, rhs: AuthError) -> Bool { lhs.kind == rhs.kind }

    /// The same error with a different detail text.
    package func with(detail: String) -> AuthError {
        var copy = self
        copy.detail = detail
        return copy
    }
}
