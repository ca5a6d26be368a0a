/// The sign-in endpoints, by the last segment of their path, and the method they are counted under: the `method`
/// label of `flint_sign_ins_total` (``MetricsMiddleware``, from the matched route template) and the `method` of a
/// `SIGN_IN_FAILED` audit event (``AuditMiddleware``, from the request's path). One table for both, so the metrics and
/// the audit log name the same endpoints the same way.
///
/// The v1 (`accounts:…`), v2 (`accounts/mfaSignIn:finalize`) and v3 (`relyingparty/…`) forms share a method; the
/// operator's account creation (`v1/projects/{project}/accounts`) is no sign-in. `idp` is federated sign-in (Apple,
/// Google, OIDC), whatever the provider.
enum SignInEndpoints {
    /// Last path segment → method.
    static let methods: [Substring: String] = [
        "accounts:signInWithPassword": "password", "verifyPassword": "password",
        "accounts:signInWithPhoneNumber": "phone", "verifyPhoneNumber": "phone",
        "accounts:signInWithEmailLink": "emailLink", "emailLinkSignin": "emailLink",
        "accounts:signUp": "signUp", "signupNewUser": "signUp",
        "mfaSignIn:finalize": "secondFactor",
        "passkeySignIn:finalize": "passkey",
        "accounts:signInWithCustomToken": "custom", "verifyCustomToken": "custom",
        "accounts:signInWithIdp": "idp", "verifyAssertion": "idp",
    ]

    /// The method of the sign-in endpoint at `path` (a request's path or a route template), `nil` for any other.
    /// Costs a scan for the last `/` and one dictionary lookup, without copying the path.
    static func method(ofPath path: String?) -> String? {
        guard let path, let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return methods[path[path.utf8.index(after: slash)...]]
    }
}
