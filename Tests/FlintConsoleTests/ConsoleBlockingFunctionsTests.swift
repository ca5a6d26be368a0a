import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

/// The blocking-functions form with `fields` (and the CSRF token).
private func saveFunctions(_ api: API, _ op: ConsoleOperator, _ fields: [String: String]) async throws -> Reply {
    try await api.console(.post, "/console/settings/blocking-functions", form: fields.merging(["csrf": op.csrf]) { $1 }, cookie: op.cookie)
}

@Suite("The web console's blocking functions")
struct ConsoleBlockingFunctionsTests {
    @Test("the form sets each trigger's URL and the forwarded credentials through the config API; an empty URL clears it")
    func save() async throws {
        try await withConsoleOperator { api, op in
            let saved = try await saveFunctions(
                api, op,
                ["beforeCreate": "https://f.example/create", "beforeSignIn": " https://f.example/signin ", "forwardIdToken": "true"])
            #expect(saved.status == .seeOther && saved.headers[.location] == "/console/settings?saved=1", "\(saved.text)")
            var config = try await api.admin(.get, Path.config)
            #expect(config["blockingFunctions"]?["triggers"]?["beforeCreate"]?["functionUri"] == "https://f.example/create", "\(config.text)")
            #expect(config["blockingFunctions"]?["triggers"]?["beforeSignIn"]?["functionUri"] == "https://f.example/signin")
            #expect(config["blockingFunctions"]?["forwardInboundCredentials"]?["idToken"] == .bool(true))
            #expect(config["blockingFunctions"]?["forwardInboundCredentials"]?["accessToken"] == .bool(false))
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(
                page.text.contains(#"value="https://f.example/create""#)
                    && page.text.contains(#"id="forwardIdToken" name="forwardIdToken" value="true" checked"#))
            let event = try #require(try await api.auditEvents("kind=CONFIG_CHANGED").first)
            #expect(event["actor"] == "ops@example.com" && event["detail"]?["updateMask"] == ["blockingFunctions"], "\(event)")

            _ = try await saveFunctions(api, op, ["beforeCreate": "", "beforeSignIn": "https://f.example/signin"])
            config = try await api.admin(.get, Path.config)
            #expect(config["blockingFunctions"]?["triggers"]?["beforeCreate"] == nil, "\(config.text)")
            #expect(config["blockingFunctions"]?["triggers"]?["beforeSignIn"] != nil)
            #expect(config["blockingFunctions"]?["forwardInboundCredentials"]?["idToken"] == .bool(false))
        }
    }

    @Test("a URL the config API refuses is refused in its words above the form, the typed value shown again, nothing saved")
    func refusals() async throws {
        try await withConsoleOperator { api, op in
            let bad = try await saveFunctions(api, op, ["beforeSignIn": "f/x"])
            #expect(bad.status == .badRequest, "\(bad.text)")
            #expect(
                bad.text.contains(#"id="blockingFunctions-error" role="alert">((Expected an absolute URI with valid scheme and host.))"#),
                "\(bad.text)")
            #expect(bad.text.contains(#"id="beforeSignIn" name="beforeSignIn" value="f/x""#))
            let flag = try await saveFunctions(api, op, ["forwardAccessToken": "maybe"])
            #expect(flag.status == .badRequest && flag.text.contains("forwardInboundCredentials takes the booleans"), "\(flag.text)")
            let config = try await api.admin(.get, Path.config)
            #expect(config["blockingFunctions"] == nil, "\(config.text)")
            let stale = try await api.console(
                .post, "/console/settings/blocking-functions", form: ["beforeSignIn": "https://f.example/x"], cookie: op.cookie)
            #expect(stale.status == .forbidden)
        }
    }

    @Test("a read-only operator sees the functions but no form, and its changes and dry runs are refused")
    func readOnly() async throws {
        try await withConsoleOperator(role: .read) { api, op in
            try await api.setBlockingFunctions(["beforeSignIn": "https://f.example/signin"])
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(page.text.contains("<code>https://f.example/signin</code>"), "\(page.text)")
            #expect(!page.text.contains(#"action="/console/settings/blocking-functions""#) && !page.text.contains("blocking-dry-run"))
            #expect(try await saveFunctions(api, op, ["beforeSignIn": ""]).status == .forbidden)
            let run = try await api.console(
                .post, "/console/settings/blocking-dry-run", form: ["csrf": op.csrf, "dryRunUri": "https://f.example/x"], cookie: op.cookie)
            #expect(run.status == .forbidden)
        }
    }

    @Test("the dry run shows the counts and the refused sign-ins, audited with the operator; bad input is refused beside the form")
    func dryRun() async throws {
        let function = StandInFunction()
        try await function.serve {
            try await withConsoleOperator { api, op in
                _ = try await api.signUp("ada@example.com")
                let bob = try await api.signUp("bob@blocked.example")
                function.answer { claims in
                    claims["user_record"]?["email"]?.stringValue?.hasSuffix("@blocked.example") == true
                        ? .json(.forbidden, ["error": ["status": "PERMISSION_DENIED", "message": "Unauthorized email"]]) : .json(.ok, [:])
                }
                func run(_ fields: [String: String]) async throws -> Reply {
                    try await api.console(
                        .post, "/console/settings/blocking-dry-run", form: fields.merging(["csrf": op.csrf]) { $1 }, cookie: op.cookie)
                }
                let reply = try await run(["dryRunUri": function.uri("screen"), "dryRunTrigger": "beforeSignIn", "dryRunDays": "7"])
                #expect(reply.status == .ok, "\(reply.text)")
                #expect(reply.text.contains("<dt>Allowed</dt><dd>1</dd>") && reply.text.contains("<dt>Refused</dt><dd>1</dd>"), "\(reply.text)")
                #expect(reply.text.contains(#"<a href="/console/users/\#(bob.localId)">"#) && reply.text.contains("Unauthorized email"))
                #expect(function.calls.count == 2)
                let event = try #require(try await api.auditEvents("kind=BLOCKING_DRY_RUN").first)
                #expect(event["actor"] == "ops@example.com" && event["detail"]?["refused"]?.intValue == 1, "\(event)")

                let days = try await run(["dryRunUri": function.uri("screen"), "dryRunDays": "31"])
                #expect(
                    days.status == .badRequest && days.text.contains(#"id="dryRun-error" role="alert">days must be between 1 and 30"#), "\(days.text)"
                )
                #expect(days.text.contains(#"value="31""#))
                let notNumber = try await run(["dryRunUri": function.uri("screen"), "dryRunDays": "a week"])
                #expect(notNumber.status == .badRequest && notNumber.text.contains("Invalid value at"), "\(notNumber.text)")
                let badURI = try await run(["dryRunUri": "f/x"])
                #expect(badURI.status == .badRequest && badURI.text.contains("Expected an absolute URI with valid scheme and host."))
                #expect(function.calls.count == 2)
            }
        }
    }
}
