import FlintCore
import FlintServer

/// The settings page's blocking functions: each trigger's function URL (empty: none) and which of a provider's
/// credentials the functions are given (`blockingFunctions`, saved as one settings group through the admin config
/// API's update, so the config's own check refuses a bad URL in Identity Platform's words), and the dry run's form and
/// report (``BlockingDryRun``).
enum ConsoleBlockingFunctions {
    /// The triggers, in the page's order, with what each is called before.
    static let triggers: [(trigger: ProjectConfig.BlockingTrigger, label: String)] = [
        (.beforeCreate, "Before an account is created"), (.beforeSignIn, "Before a sign-in's tokens are issued"),
        (.beforeSendEmail, "Before an email is sent"), (.beforeSendSms, "Before an SMS code is sent"),
    ]

    /// The `forwardInboundCredentials` flags and their form fields.
    static let forwarded: [(flag: String, field: String)] = [
        ("idToken", "forwardIdToken"), ("accessToken", "forwardAccessToken"), ("refreshToken", "forwardRefreshToken"),
    ]

    /// The form: every trigger's URL and the three flags replace `blockingFunctions` (a trigger whose URL did not
    /// change keeps its stored fields, such as `updateTime`). Refusals name no field: they are shown above the form.
    static let group = ConsoleSettingsGroup(
        name: "blocking-functions", mask: ["blockingFunctions"],
        fields: [("blockingFunctions", "blockingFunctions")] + triggers.map { ($0.trigger.rawValue, "triggers.\($0.trigger.rawValue)") },
        echo: triggers.map(\.trigger.rawValue)
    ) { form, config in
        let stored = config.document["blockingFunctions"]?["triggers"]?.objectValue ?? [:]
        var map: [String: JSONValue] = [:]
        for (trigger, _) in triggers {
            let uri = (form[trigger.rawValue] ?? "").trimmingSpaces
            guard !uri.isEmpty else { continue }
            let kept = stored[trigger.rawValue]
            map[trigger.rawValue] = kept?["functionUri"]?.stringValue == uri ? kept : ["functionUri": .string(uri)]
        }
        var forward: [String: JSONValue] = [:]
        for (flag, field) in forwarded { forward[flag] = ConsoleSettingsGroup.flag(form, field) }
        return ["blockingFunctions": ["triggers": .object(map), "forwardInboundCredentials": .object(forward)]]
    }

    /// What the section shows of `config`: each trigger's URL and label, the flags, and the dry run's choices.
    static func data(_ config: ProjectConfig) -> [String: Any] {
        let uris = config.blockingFunctionURIs
        let forward = config.forwardedCredentials
        var data: [String: Any] = [
            "blockingTriggers": triggers.map { ["name": $0.trigger.rawValue, "label": $0.label, "uri": uris[$0.trigger] ?? ""] },
            "forwardIdToken": forward.idToken, "forwardAccessToken": forward.accessToken, "forwardRefreshToken": forward.refreshToken,
            "dryRunDays": BlockingDryRun.defaultDays, "dryRunMaxDays": BlockingDryRun.maxDays,
            "dryRunTriggers": BlockingDryRun.triggers.map { ["name": $0.rawValue, "selected": $0 == .beforeSignIn] },
        ]
        for (trigger, _) in triggers { data[trigger.rawValue] = uris[trigger] ?? "" }
        return data
    }

    /// The dry run's form as the endpoint's body: blank fields left out (the endpoint's defaults), the days as typed
    /// (the endpoint's decoder refuses what is not a number).
    static func dryRunBody(_ form: [String: String]) -> [String: JSONValue] {
        var body: [String: JSONValue] = [:]
        for (key, field) in [("functionUri", "dryRunUri"), ("trigger", "dryRunTrigger"), ("days", "dryRunDays")] {
            let value = (form[field] ?? "").trimmingSpaces
            if !value.isEmpty { body[key] = .string(value) }
        }
        return body
    }

    /// The form's values shown again with its answer, the trigger chosen.
    static func echo(_ form: [String: String]) -> [String: Any] {
        let chosen = form["dryRunTrigger"] ?? ""
        return [
            "dryRunUri": form["dryRunUri"] ?? "", "dryRunDays": form["dryRunDays"] ?? "",
            "dryRunTriggers": BlockingDryRun.triggers.map { ["name": $0.rawValue, "selected": $0.rawValue == chosen] },
        ]
    }

    /// The report as the template shows it.
    /// (Counts of nothing are left out, so the template's sections on them stay hidden.)
    static func report(_ report: BlockingDryRunReport) -> [String: Any] {
        var data: [String: Any] = [
            "functionUri": report.functionUri, "trigger": report.trigger, "days": report.days, "since": report.since, "signIns": report.signIns,
            "replayed": report.replayed, "allowed": report.allowed, "changed": report.changed, "refused": report.refused,
            "failed": report.failed, "truncated": report.truncated, "hasRows": !report.results.isEmpty,
            "rows": report.results.map { row in
                [
                    "uid": row.uid, "time": row.time, "method": row.method, "signIns": row.signIns, "outcome": row.outcome,
                    "refused": row.outcome == "REFUSED", "what": row.message ?? (row.changes ?? []).joined(separator: ", "),
                ] as [String: Any]
            },
        ]
        if report.skipped > 0 { data["skipped"] = report.skipped }
        if report.notRun > 0 { data["notRun"] = report.notRun }
        return data
    }
}
