import FlintCore
import FlintServer
import Hummingbird

/// The sign-in methods grid's switch (``ConsoleProviderGrid``): one method or provider on or off, changed as its own
/// form would change it — the config API's update for email, email link, phone and anonymous sign-in, the provider's
/// admin resource for an identity provider — so it is checked and audited (`CONFIG_CHANGED`, the operator as actor).
extension ConsoleRoutes {
    func changeProviderState(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            let id = form["providerId"] ?? ""
            let on = form["enabled"] == "true"
            let config = flow.node.config
            do {
                switch id {
                case "password":
                    try await updateConfig(
                        ["signIn": ["email": ["enabled": .bool(on)]]], mask: ["signIn.email.enabled"], caller: caller, context: context)
                case "emailLink":
                    // An email link needs email sign-in on, and no password required.
                    var email: [String: JSONValue] = ["passwordRequired": .bool(!on)]
                    var mask = ["signIn.email.passwordRequired"]
                    if on { (email["enabled"], mask) = (.bool(true), mask + ["signIn.email.enabled"]) }
                    try await updateConfig(["signIn": ["email": .object(email)]], mask: mask, caller: caller, context: context)
                case "phone":
                    try await updateConfig(
                        ["signIn": ["phoneNumber": ["enabled": .bool(on)]]], mask: ["signIn.phoneNumber.enabled"], caller: caller, context: context)
                case "anonymous":
                    try await updateConfig(
                        ["signIn": ["anonymous": ["enabled": .bool(on)]]], mask: ["signIn.anonymous.enabled"], caller: caller, context: context)
                default:
                    guard let collection = ProjectConfig.collection(of: id) else {
                        return pages.message("Refused", "That is not a sign-in method Flint serves.", caller: caller, status: .badRequest)
                    }
                    var resource = config.current.idpResources(collection)[id] ?? [:]
                    resource["enabled"] = .bool(on)
                    try await asOperator(caller, context: context) {
                        _ = try await config.saveIdentityProvider(
                            id, in: collection, resource, at: flow.node.clock.now(), change: ["updated": .string(id), "from": "console"])
                    }
                }
            } catch let error as AuthError {
                var data = settingsData()
                data["gridError"] = error.detail ?? error.message
                return pages.page("settings", title: "Settings", data, caller: caller, status: .badRequest)
            }
            return ConsolePages.redirect("/console/settings?saved=1#sign-in-methods")
        }
    }
}
