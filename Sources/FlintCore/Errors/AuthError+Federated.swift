/// Federated sign-in's and the identity-provider resources' errors.
extension AuthError {
    /// A provider's credential that does not verify, with what was wrong.
    package static func invalidIdpResponse(_ detail: String) -> AuthError {
        AuthError(code: "INVALID_IDP_RESPONSE", detail: detail)
    }
    /// `signInWithIdp` without `requestUri`.
    package static let missingRequestURI = AuthError(code: "MISSING_REQUEST_URI")
    /// `signInWithIdp` with neither `postBody` nor `pendingToken`… or a `postBody` without a credential.
    package static let invalidCredentialOrProviderID = AuthError(code: "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    /// A `pendingToken` that is not one of ours, has expired, or names another provider.
    package static let invalidPendingToken = AuthError(code: "INVALID_PENDING_TOKEN")
    /// A provider resource that does not exist.
    package static let idpConfigNotFound = AuthError(status: 404, code: "CONFIGURATION_NOT_FOUND", reason: "notFound", rpcStatus: "NOT_FOUND")
    /// Creating a provider resource that exists already.
    package static let idpConfigExists = AuthError(status: 409, code: "CONFIGURATION_EXISTS", reason: "conflict", rpcStatus: "ALREADY_EXISTS")
    /// The provider's keys could not be fetched.
    package static let idpKeysUnavailable = AuthError(
        code: "INVALID_IDP_RESPONSE", detail: "The identity provider's public keys could not be fetched.")
}
