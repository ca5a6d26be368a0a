import FlintCore
import FlintStore

/// A hosted-handler or `createAuthUri` sign-in in a tenant. The handler's start names the tenant in `tid` (FirebaseAuth's
/// `OAuthProvider` and the JS SDK add it when the auth instance has one), `createAuthUri` in `tenantId`
/// (``TenantMiddleware``); the start runs in the tenant's ``TenantScope`` (the tenant's providers; the project's apps
/// and authorized domains, which a tenant has none of) and seals the tenant into the state. The SAML IdP's post is
/// verified with the state's tenant's provider, and `signInWithIdp` completes the sign-in only in that tenant
/// (``FederatedSignIn/inScope(_:)``).
extension FederatedRedirect {
    /// Runs `body` in the tenant `id` (the project's own users when it is empty).
    /// - Throws: ``Refusal`` for an unknown tenant or one whose `disableAuth` is on; what `body` throws.
    func inTenant<T: Sendable>(_ id: String, _ body: () async throws(Refusal) -> T) async throws(Refusal) -> T {
        guard !id.isEmpty else { return try await body() }
        let settings: ProjectConfig
        do { settings = try await tenants.open(id, over: flow.node.config.project).settings } catch let error as AuthError {
            switch error.code {
            case AuthError.tenantNotFound.code: throw Self.unknownTenant(id)
            case AuthError.projectDisabled.code:
                throw Refusal(message: "Sign-in is disabled in the tenant \(id).", code: "auth/operation-not-allowed")
            default: throw Refusal(message: "The tenant \(id)'s settings cannot be used: \(error.detail ?? error.code).")
            }
        } catch {
            throw Self.unknownTenant(id)
        }
        let result: Result<T, Refusal> = await TenantScope.run(in: TenantID(rawValue: id), settings: settings) {
            do throws(Refusal) { return .success(try await body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private static func unknownTenant(_ id: String) -> Refusal {
        Refusal(message: "The tenant \(id) is not one of this project's tenants.", code: "auth/invalid-tenant-id")
    }

    /// A new sign-in's state, in the request's tenant, valid from now.
    func newState(providerID: String, sessionHash: String, eventID: String, authType: String, target: RedirectState.Target) -> RedirectState {
        RedirectState(
            providerID: providerID, sessionHash: sessionHash, eventID: eventID, authType: authType, target: target,
            tenant: TenantID.scoped.rawValue, random: flow.node.random, now: flow.node.clock.now())
    }
}
