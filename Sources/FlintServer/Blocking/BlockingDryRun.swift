package import FlintCore
import FlintStore
import Hummingbird

/// A blocking function tried against the audit log before it is turned on (a Flint extension): the sign-ins of the
/// last `days` days (``AuditKind/signIn`` events) are replayed to the function, each as the live call builds it
/// (``BlockingEvent``, ``BlockingFunctions/post(_:to:forwarded:request:dryRun:)``), and the report says which it would
/// have refused, which it would have changed, and which calls failed. Nothing is applied or stored but one
/// `BLOCKING_DRY_RUN` audit event with the counts.
///
/// What a replay can and cannot know:
/// - the account is sent as it is now (the log keeps no copy of it as it was), with its federated identities and
///   second factors; an account deleted since is skipped;
/// - the client's address is the logged one; its user agent and locale, and a federated provider's profile and
///   credentials (`raw_user_info`, `oauth_*`), are not logged, so they are not sent;
/// - `beforeSignIn` replays the sign-ins that issued tokens (a first factor, or a second factor's completion), and
///   `beforeCreate` those that created the account; anonymous and custom-token sign-ins and links call no function,
///   as live.
///
/// Bounds: the most recent ``maxScanned`` sign-ins of the window are read; they are replayed once per account and
/// sign-in method (the most recent, since the account sent is the same), at most ``maxReplayed`` of them, newest
/// first; ``concurrency`` calls at a time, each with the live call's timeout; once ``maxFailures`` calls failed no
/// other starts (an unreachable function would otherwise take each call's timeout a thousand times over).
/// Identity Platform's JWT has no field saying "dry run": the event is the live one, its `event_id` starts `dry-run-`
/// and the request carries `X-Flint-Dry-Run: true`.
package struct BlockingDryRun: Sendable {
    let node: Node

    /// The window's default and maximum, in days.
    package static let defaultDays = 7
    package static let maxDays = 30
    /// The most sign-ins read from the audit log, the most calls made, how many at a time, and the failures after
    /// which no other call starts.
    package static let maxScanned = 10_000
    package static let maxReplayed = 1_000
    static let concurrency = 8
    static let maxFailures = 50
    /// The triggers a dry run replays (the emails and texts sent are not in the audit log).
    package static let triggers: [ProjectConfig.BlockingTrigger] = [.beforeSignIn, .beforeCreate]

    package init(node: Node) { self.node = node }

    /// `POST /flint/v1/projects/{project}/blockingFunctions:dryRun`: `functionUri` (default: the configured one of
    /// the trigger), `trigger` (`beforeSignIn` or `beforeCreate`; default `beforeSignIn`), `days` (1 to 30; default 7).
    package struct Request: Decodable, Sendable {
        package var functionUri: String?
        package var trigger: String?
        package var days: Int?

        package init(functionUri: String? = nil, trigger: String? = nil, days: Int? = nil) {
            (self.functionUri, self.trigger, self.days) = (functionUri, trigger, days)
        }
    }

    /// Runs the dry run `request` describes.
    /// - Throws: `INVALID_BLOCKING_FUNCTION` for a URL the config would refuse (the config's own check),
    ///   `INVALID_ARGUMENT` for a trigger other than the two, days out of range, or no URL when none is configured.
    package func run(_ request: Request) async throws -> BlockingDryRunReport {
        let (uri, trigger, days) = try checked(request)
        let now = node.clock.now()
        let since = now - .seconds(Int64(days) * 86_400)
        let scan = try await replays(trigger: trigger, since: since)
        let results = await replay(scan.replays, trigger: trigger, uri: uri)
        let report = BlockingDryRunReport(
            functionUri: uri, trigger: trigger.rawValue, days: days, since: since, signIns: scan.signIns, truncated: scan.truncated,
            replays: scan.replays, results: results)
        await node.recordAudit(AuditOrigin.current.event(.blockingDryRun, uid: nil, at: now, report.auditDetail))
        return report
    }

    /// The request's function URL, trigger and days, checked.
    private func checked(_ request: Request) throws(AuthError) -> (String, ProjectConfig.BlockingTrigger, Int) {
        let name = request.trigger ?? ProjectConfig.BlockingTrigger.beforeSignIn.rawValue
        guard let trigger = ProjectConfig.BlockingTrigger(rawValue: name), Self.triggers.contains(trigger) else {
            throw AuthError.invalidArgument("trigger must be beforeSignIn or beforeCreate")
        }
        let days = request.days ?? Self.defaultDays
        guard (1...Self.maxDays).contains(days) else { throw AuthError.invalidArgument("days must be between 1 and \(Self.maxDays)") }
        let given = request.functionUri?.trimmingSpaces ?? ""
        guard let uri = given.isEmpty ? node.config.current.blockingFunctionURIs[trigger] : given else {
            throw AuthError.invalidArgument("functionUri is required: no \(trigger.rawValue) function is configured")
        }
        // The config's own check of a function's URL.
        try ProjectConfig.validateBlockingFunctions(["blockingFunctions": ["triggers": [trigger.rawValue: ["functionUri": .string(uri)]]]])
        return (uri, trigger, days)
    }

    /// One call to make: an account's most recent sign-in with one method, and how many of the window's it stands for.
    struct Replay: Sendable {
        let uid: String
        let method: String
        let at: Instant
        let ip: String?
        var signIns = 1
    }

    /// The sign-ins of the window that call `trigger`, newest first, one per account and method.
    private func replays(trigger: ProjectConfig.BlockingTrigger, since: Instant) async throws -> (
        replays: [Replay], signIns: Int, truncated: Bool
    ) {
        var replays: [Replay] = []
        var index: [String: Int] = [:]
        var (scanned, signIns, truncated) = (0, 0, false)
        var before: Int64?
        let page = 1000
        while scanned < Self.maxScanned {
            let query = AuditQuery(kind: .signIn, since: since, beforeID: before, limit: min(page, Self.maxScanned - scanned))
            let events = try await node.store.read { try await $0.auditEvents(query) }
            scanned += events.count
            for event in events {
                guard let uid = event.uid, let method = event.detail["method"]?.stringValue, Self.calls(trigger, event) else { continue }
                signIns += 1
                let key = uid + "\n" + method
                if let at = index[key] {
                    replays[at].signIns += 1
                } else if replays.count < Self.maxReplayed {
                    index[key] = replays.count
                    replays.append(Replay(uid: uid, method: method, at: event.at, ip: event.ip))
                } else {
                    truncated = true
                }
            }
            guard events.count == query.limit, let last = events.last?.id else { return (replays, signIns, truncated) }
            before = last
        }
        // Read up to the limit: truncated if the window holds an older sign-in.
        let older = AuditQuery(kind: .signIn, since: since, beforeID: before, limit: 1)
        let more = try await node.store.read { try await $0.auditEvents(older) }
        return (replays, signIns, truncated || !more.isEmpty)
    }

    /// Whether the sign-in `event` records called `trigger` live: tokens issued (`beforeSignIn`) or an account
    /// created (`beforeCreate`), by a method that calls functions, not a link.
    static func calls(_ trigger: ProjectConfig.BlockingTrigger, _ event: AuditEvent) -> Bool {
        guard let method = event.detail["method"]?.stringValue, event.detail["link"]?.boolValue != true,
            SignInGate.callsBlockingFunctions(provider: method, linking: false)
        else { return false }
        switch trigger {
        case .beforeCreate: return event.detail["newUser"]?.boolValue == true
        default: return event.detail["result"]?.stringValue == "TOKENS"
        }
    }

    /// Calls the function once per replay, ``concurrency`` at a time, until ``maxFailures`` failed; the results in the
    /// replays' order (`nil`: not run).
    private func replay(_ replays: [Replay], trigger: ProjectConfig.BlockingTrigger, uri: String) async -> [BlockingDryRunReport.Outcome?] {
        var results = [BlockingDryRunReport.Outcome?](repeating: nil, count: replays.count)
        await withTaskGroup(of: (Int, BlockingDryRunReport.Outcome).self) { group in
            var (next, failures) = (0, 0)
            func start() {
                guard next < replays.count, failures < Self.maxFailures else { return }
                let (index, replay) = (next, replays[next])
                next += 1
                group.addTask { (index, await self.call(replay, trigger: trigger, uri: uri)) }
            }
            for _ in 0..<Self.concurrency { start() }
            for await (index, outcome) in group {
                results[index] = outcome
                if case .failed = outcome { failures += 1 }
                start()
            }
        }
        return results
    }

    /// One replay's call, with the account as it is now.
    private func call(_ replay: Replay, trigger: ProjectConfig.BlockingTrigger, uri: String) async -> BlockingDryRunReport.Outcome {
        let found: (UserRecord, [FederatedIdentityRecord], [MFAEnrollmentRecord])?
        do {
            found = try await node.store.read { reader in
                guard let user = try await reader.user(tenant: .scoped, localID: replay.uid) else { return nil }
                return (
                    user, try await reader.federatedIdentities(tenant: .scoped, localID: user.localID),
                    try await reader.mfaEnrollments(tenant: .scoped, localID: user.localID)
                )
            }
        } catch {
            return .failed("The account could not be read.")
        }
        guard let (user, identities, enrollments) = found else { return .skipped }
        let event = BlockingEvent(trigger: trigger, user: user, identities: identities, enrollments: enrollments, signInMethod: replay.method)
        // The provider's credentials are not logged: nothing to forward.
        switch await node.blocking.post(event, to: uri, forwarded: .init(), request: RequestFacts(ip: replay.ip), dryRun: true) {
        case .verdict(let verdict):
            let changes = verdict.changes(to: user)
            return changes.isEmpty ? .allowed : .changed(changes)
        case .refused(let detail, let message): return .refused(message ?? detail)
        case .failed(let detail): return .failed(detail)
        }
    }
}

extension BlockingDryRun {
    /// The endpoint's handler (operator only; audited as `ADMIN_ACTION` by the middleware and `BLOCKING_DRY_RUN` here).
    func handle(_ request: Hummingbird.Request, context: FlintRequestContext) async throws -> BlockingDryRunReport {
        try context.requireAdmin()
        guard context.parameters.get("project") == node.settings.projectID else { throw AuthError.projectNotFound }
        return try await run(try await request.decode(as: Request.self, context: context))
    }
}

extension BlockingDryRunReport: ResponseEncodable {}
