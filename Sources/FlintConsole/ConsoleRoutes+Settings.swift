import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The sign-in settings page: phone, email, anonymous and multi-factor sign-in, the authorized domains, the app links,
/// the fictional test phone numbers and the blocking functions. Every form changes the config through the admin config API's own update
/// (``ProjectConfigRoutes/update(config:patch:updateMask:at:)``, with the form's `updateMask`), so a change is checked,
/// stored and audited (`CONFIG_CHANGED`, the operator as actor) as a script's would be, and a refusal's Firebase
/// message is shown beside the field it names.
extension ConsoleRoutes {
    /// The mask of the test numbers.
    static let testNumbersMask = "signIn.phoneNumber.testPhoneNumbers"

    func settings(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        var data = settingsData()
        if ConsoleForm.query("saved", in: request) != nil { data["notice"] = "Saved." }
        if let removed = ConsoleForm.query("removed", in: request) { data["notice"] = "\(removed) deleted." }
        // The grid's "Edit" opens that provider's form.
        if let slug = ConsoleForm.query("edit", in: request), let rows = data["providers"] as? [[String: Any]] {
            data["providers"] = rows.map { row in row.merging(["editing": row["slug"] as? String == slug]) { $1 } }
        }
        return pages.page("settings", title: "Settings", data, caller: caller)
    }

    /// A settings group's form, the group named by the path it was posted to (``ConsoleEndpoint/changeSettings``).
    func changeSettings(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let name = context.endpointPath?.split(separator: "/").last, let group = ConsoleSettingsGroup.all[String(name)] else {
            throw HTTPError(.notFound)
        }
        return try await change(request) { caller, form in
            let patch = group.patch(form, flow.node.config.project)
            return try await save(patch, mask: group.mask, caller: caller, context: context) { message in
                var data: [String: Any] = ["errors": [group.field(for: message): message] as [String: Any]]
                for field in group.echo { data[field] = form[field] ?? "" }
                return data
            }
        }
    }

    /// One sign-in provider's form (``ConsoleProviders``): saved as the admin API saves its resource, audited with the
    /// operator as actor.
    func changeProvider(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            guard let id = form["providerId"], let kind = ConsoleProviders.kind(id) else {
                return pages.message("Refused", "That is not a sign-in provider Flint serves.", caller: caller, status: .badRequest)
            }
            let config = flow.node.config
            let resource = ConsoleProviders.resource(kind, form: form, current: config.current.idpResources(.defaultSupported)[id])
            return try await save(caller: caller, context: context, anchor: "#providers") { message in
                ["providers": ConsoleProviders.rows(config.current, errors: [id: message])]
            } write: {
                try await config.saveIdentityProvider(
                    id, in: .defaultSupported, resource, at: flow.node.clock.now(), change: ["updated": .string(id), "from": "console"])
            }
        }
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
            return try await save(patch, mask: [Self.testNumbersMask], caller: caller, context: context) { message in
                ["error": message, "number": form["number"] ?? "", "code": form["code"] ?? ""]
            }
        }
    }

    /// Runs the admin config update with `patch` and `mask` as `caller`: on success the redirect to the saved page,
    /// on a refusal the page again (400) with the data `errorData` makes of the error's message.
    private func save(
        _ patch: [String: JSONValue], mask: [String], caller: ConsoleCaller, context: FlintRequestContext,
        _ errorData: (String) -> [String: Any]
    ) async throws -> Response {
        try await save(caller: caller, context: context, errorData) {
            _ = try await ProjectConfigRoutes.update(config: flow.node.config, patch: patch, updateMask: mask, at: flow.node.clock.now())
        }
    }

    /// Runs a config change (`write`) as `caller` (``asOperator(_:context:_:)``): on success the redirect to the saved page
    /// (at `anchor`), on a refusal the page again (400) with the data `errorData` makes of the error's message.
    private func save(
        caller: ConsoleCaller, context: FlintRequestContext, anchor: String = "", _ errorData: (String) -> [String: Any],
        write: () async throws -> Void
    ) async throws -> Response {
        do {
            try await asOperator(caller, context: context, write)
        } catch let error as AuthError {
            let data = settingsData().merging(errorData(error.detail ?? error.message)) { $1 }
            return pages.page("settings", title: "Settings", data, caller: caller, status: .badRequest)
        }
        return ConsolePages.redirect("/console/settings?saved=1" + anchor)
    }

    /// Runs the admin config API's update with `patch` and `mask` as `caller`: checked, stored and audited
    /// (`CONFIG_CHANGED`, the operator as actor, the request's address) as a script's change would be.
    /// - Throws: the config's refusal, an ``AuthError`` (`INVALID_CONFIG` with its detail).
    func updateConfig(_ patch: [String: JSONValue], mask: [String], caller: ConsoleCaller, context: FlintRequestContext) async throws {
        try await asOperator(caller, context: context) {
            _ = try await ProjectConfigRoutes.update(config: flow.node.config, patch: patch, updateMask: mask, at: flow.node.clock.now())
        }
    }

    /// Runs `body` with the operator as the audit actor and the request's address, as a script's change is recorded.
    func asOperator<T>(_ caller: ConsoleCaller, context: FlintRequestContext, _ body: () async throws -> T) async throws -> T {
        try await AuditOrigin.$current.withValue(AuditOrigin.console(ip: context.clientIP, actor: caller.email)) { try await body() }
    }

    /// The current test numbers and their codes.
    private func testNumbers() -> [String: JSONValue] {
        flow.node.config.current.resource(projectID: flow.node.settings.projectID)["signIn"]?["phoneNumber"]?["testPhoneNumbers"]?.objectValue ?? [:]
    }

    func settingsData() -> [String: Any] {
        let rows: [[String: Any]] = testNumbers().sorted { $0.key < $1.key }.map { ["number": $0.key, "code": $0.value.stringValue ?? ""] }
        var data = ConsoleSettingsView(
            config: flow.node.config.current, smsCodeTTL: flow.node.settings.smsCodeTTL, devMode: flow.node.settings.devMode
        ).data
        data["numbers"] = rows
        data["providers"] = ConsoleProviders.rows(flow.node.config.current)
        data["grid"] = ConsoleProviderGrid.rows(flow.node.config.current)
        data["firstFactors"] = ConsoleProviderGrid.firstFactorChoices(flow.node.config.current)
        return data.merging(ConsoleBlockingFunctions.data(flow.node.config.current)) { $1 }
            .merging(ConsolePolicies.data(flow.node.config.current)) { $1 }
            .merging(ConsoleSessionLifetimes.data(flow.node.config.current)) { $1 }
    }
}
