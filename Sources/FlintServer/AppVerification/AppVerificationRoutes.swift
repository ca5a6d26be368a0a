/// App verification before any SMS: `verifyClient` (silent push), `recaptchaConfig`, and Flint's own web
/// challenge at `/__/auth/handler`.
struct AppVerificationRoutes {
    let verifier: AppVerifier
    /// The tenants a `recaptchaConfig` request may name.
    let tenants: TenantCache
}
