import FlintCore
import FlintServer
import Hummingbird

/// "Add a user": an email with a password, a phone number, or both, created through the operator's account create.
extension ConsoleRoutes {
    func showNewUser(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        guard caller.canWrite else { return pages.message("Refused", "Your role (read) may only read.", caller: caller, status: .forbidden) }
        return pages.page("newUser", title: "Users — add a user", [:], caller: caller)
    }

    func createUser(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            do {
                let id = try await flow.createUser(
                    email: form["email"] ?? "", password: form["password"] ?? "", phone: form["phone"] ?? "",
                    displayName: form["name"] ?? "", emailVerified: form["verified"] == "yes", by: caller, ip: context.clientIP)
                return ConsolePages.redirect("/console/users/\(id)?created=1")
            } catch let error as AuthError {
                var data: [String: Any] = ["error": error.message, "verified": form["verified"] == "yes"]
                for key in ["email", "phone", "name"] { data[key] = form[key] ?? "" }
                return pages.page("newUser", title: "Users — add a user", data, caller: caller, status: .badRequest)
            }
        }
    }
}
