import FlintCore
import Testing

@Suite("A tenant's settings over the project's config")
struct TenantSettingsTests {
    @Test("the tenant's switches, second factors and password policy replace the project's; what a tenant lacks stays the project's")
    func overlay() throws {
        let project = try ProjectConfig.defaults.applying(
            patch: ["authorizedDomains": ["app.example.com"], "mfa": ["state": "ENABLED", "enabledProviders": ["PHONE_SMS"]]],
            updateMask: ["authorizedDomains", "mfa"])
        let closed = try TenantConfig(document: ["displayName": "closed"]).settings(over: project)
        #expect(!closed.emailSignInEnabled && !closed.anonymousSignInEnabled, "a new tenant allows neither until switched on")
        #expect(closed.mfaState == .disabled, "the project's second factors are not a tenant's")
        #expect(closed.authorizedDomains == project.authorizedDomains, "authorized domains are the project's")
        let open = try TenantConfig(document: [
            "displayName": "open", "allowPasswordSignup": true, "enableAnonymousUser": true, "enableEmailLinkSignin": true,
            "mfaConfig": ["state": "MANDATORY", "enabledProviders": ["PHONE_SMS"]],
        ]).settings(over: project)
        #expect(open.emailSignInEnabled && !open.passwordRequired && open.anonymousSignInEnabled)
        #expect(open.mfaState == .mandatory)
    }
}
