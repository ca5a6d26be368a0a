import FlintCore

/// What a dry run (``BlockingDryRun``) found: how many sign-ins of the window call the trigger, how many calls were
/// made (one per account and method), and how the function answered them — allowed as is, allowed with changes,
/// refused, failed — with a row per call that was not simply allowed. Its JSON is the endpoint's answer.
package struct BlockingDryRunReport: Sendable, Encodable {
    /// How the function answered one replayed sign-in.
    package enum Outcome: Sendable, Equatable {
        case allowed
        /// Allowed, changing these fields (``BlockingVerdict/changes(to:)``).
        case changed([String])
        /// Refused, with the function's `error.message` (or the refusal's detail).
        case refused(String)
        /// No usable answer: the error's detail.
        case failed(String)
        /// The account was deleted since.
        case skipped
    }

    /// A call that was not simply allowed.
    package struct Row: Sendable, Encodable {
        package let uid: String
        /// The sign-in's time (RFC 3339): the most recent of the account's with this method.
        package let time: String
        package let method: String
        /// How many sign-ins of the window it stands for.
        package let signIns: Int
        /// `REFUSED`, `CHANGED` or `FAILED`.
        package let outcome: String
        /// The function's message (refused) or what went wrong (failed).
        package let message: String?
        /// The fields the answer changes (changed).
        package let changes: [String]?
    }

    package let functionUri: String
    package let trigger: String
    package let days: Int
    /// The window's start (RFC 3339).
    package let since: String
    /// The window's sign-ins that call the trigger (of the ``BlockingDryRun/maxScanned`` most recent read).
    package let signIns: Int
    /// Calls made: one per account and method.
    package let replayed: Int
    package let allowed: Int
    package let changed: Int
    package let refused: Int
    package let failed: Int
    /// Accounts deleted since their sign-in: not called.
    package let skipped: Int
    /// Calls not made once ``BlockingDryRun/maxFailures`` had failed.
    package let notRun: Int
    /// Whether the window held more than the dry run reads or replays.
    package let truncated: Bool
    /// The refused calls, then the changed ones, then the failed ones; newest first within each.
    package let results: [Row]

    init(
        functionUri: String, trigger: String, days: Int, since: Instant, signIns: Int, truncated: Bool, replays: [BlockingDryRun.Replay],
        results outcomes: [Outcome?]
    ) {
        (self.functionUri, self.trigger, self.days, self.since) = (functionUri, trigger, days, RFC3339.format(since))
        (self.signIns, self.truncated) = (signIns, truncated)
        var rows: [(rank: Int, row: Row)] = []
        var counts = (allowed: 0, changed: 0, refused: 0, failed: 0, skipped: 0, notRun: 0)
        for (replay, outcome) in zip(replays, outcomes) {
            func row(_ rank: Int, _ outcome: String, message: String? = nil, changes: [String]? = nil) {
                let row = Row(
                    uid: replay.uid, time: RFC3339.format(replay.at), method: replay.method, signIns: replay.signIns, outcome: outcome,
                    message: message, changes: changes)
                rows.append((rank, row))
            }
            switch outcome {
            case .allowed?: counts.allowed += 1
            case .changed(let fields)?:
                counts.changed += 1
                row(1, "CHANGED", changes: fields)
            case .refused(let message)?:
                counts.refused += 1
                row(0, "REFUSED", message: message)
            case .failed(let detail)?:
                counts.failed += 1
                row(2, "FAILED", message: detail)
            case .skipped?: counts.skipped += 1
            case nil: counts.notRun += 1
            }
        }
        (allowed, changed, refused, failed) = (counts.allowed, counts.changed, counts.refused, counts.failed)
        (skipped, notRun) = (counts.skipped, counts.notRun)
        replayed = allowed + changed + refused + failed
        // A stable sort: within each outcome the replays' order, newest first.
        self.results = rows.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element.row)
    }

    /// The `BLOCKING_DRY_RUN` audit event's detail: the function, the window and the counts.
    var auditDetail: [String: JSONValue] {
        [
            "functionUri": .string(functionUri), "trigger": .string(trigger), "days": .number(Double(days)), "signIns": .number(Double(signIns)),
            "replayed": .number(Double(replayed)), "allowed": .number(Double(allowed)), "changed": .number(Double(changed)),
            "refused": .number(Double(refused)), "failed": .number(Double(failed)),
        ]
    }
}
