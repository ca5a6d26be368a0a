import Hummingbird

/// The route group of federated sign-in: `signInWithIdp` under its v1, v3 and operator paths.
struct FederatedRoutes {
    let flow: FederatedSignIn

    /// On the operator's `v1/projects/{project}/accounts:signInWithIdp` the caller must be the operator.
    func signInWithIdp(_ request: Request, context: FlintRequestContext) async throws -> SignInWithIdpResponse {
        let wire = try await context.clientBody(request, as: SignInWithIdpRequest.self, projectID: flow.node.settings.projectID)
        return try await flow.signInWithIdp(wire, clientIP: context.clientIP)
    }
}
