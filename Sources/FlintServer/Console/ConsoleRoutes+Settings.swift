import FlintCore
import FlintStore
import Hummingbird

/// The sign-in settings page: so far the fictional test phone numbers, changed through the admin config API's own
/// update (`updateMask=signIn.phoneNumber.testPhoneNumbers`), with its validation errors shown beside the form.
extension ConsoleRoutes {
    /// The mask of the test numbers.
    static let testNumbersMask = "signIn.phoneNumber.testPhoneNumbers"

    func settings(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        var data = settingsData()
        if ConsoleForm.query("saved", in: request) != nil { data["notice"] = "Saved." }
        return pages.page("settings", title: "Settings", data, caller: caller)
    }

    func changeTestNumbers(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            var numbers = testNumbers()
            if let removed = form["remove"] {
                numbers[removed] = nil
            } else {
                numbers[form["number"] ?? ""] = .string((form["code"] ?? "").filter { !$0.isWhitespace })
            }
            let patch: [String: JSONValue] = ["signIn": ["phoneNumber": ["testPhoneNumbers": .object(numbers)]]]
            let origin = AuditOrigin(ip: context.clientIP, actor: caller.email)
            do {
                _ = try await AuditOrigin.$current.withValue(origin) {
                    try await ProjectConfigRoutes.update(
                        config: flow.node.config, patch: patch, updateMask: [Self.testNumbersMask], at: flow.node.clock.now())
                }
            } catch let error as AuthError {
                var data = settingsData()
                data["error"] = error.detail ?? error.message
                data["number"] = form["number"] ?? ""
                data["code"] = form["code"] ?? ""
                return pages.page("settings", title: "Settings", data, caller: caller, status: .badRequest)
            }
            return ConsolePages.redirect("/console/settings?saved=1")
        }
    }

    /// The current test numbers and their codes.
    private func testNumbers() -> [String: JSONValue] {
        flow.node.config.current.resource(projectID: flow.node.settings.projectID)["signIn"]?["phoneNumber"]?["testPhoneNumbers"]?.objectValue ?? [:]
    }

    private func settingsData() -> [String: Any] {
        let rows: [[String: Any]] = testNumbers().sorted { $0.key < $1.key }.map { ["number": $0.key, "code": $0.value.stringValue ?? ""] }
        return ["numbers": rows]
    }
}
