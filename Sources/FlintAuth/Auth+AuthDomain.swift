import Foundation

extension Auth {
    /// Where the hosted handler (`/__/auth/handler`: app verification's challenge, a provider's sign-in) is: the
    /// emulator (`http`, unlike FirebaseAuth's `https` for the challenge, so a local Flint works),
    /// `Auth.customAuthDomain` (as FirebaseAuth's `fetchAuthDomain`), the Flint base URL, or the first
    /// `firebaseapp.com`, then `web.app`, domain of `getProjectConfig`.
    func authDomainRoot() async throws -> String {
        let configuration = backend.configuration.current
        if let emulator = configuration.emulatorHost { return "http://\(emulator)" }
        if let domain = customAuthDomain, !domain.isEmpty { return "https://\(domain)" }
        if let base = configuration.baseURL { return base.absoluteString }
        let project = try await backend.get("/v1/projects", as: ProjectConfigResponse.self)
        for suffix in ["firebaseapp.com", "web.app"] {
            if let domain = project.authorizedDomains.first(where: { $0.hasSuffix(suffix) && $0.count >= suffix.count + 2 }) {
                return "https://\(domain)"
            }
        }
        throw AuthErrorCode.internalError.error(detail: "getProjectConfig lists no firebaseapp.com or web.app domain for the hosted handler.")
    }
}
