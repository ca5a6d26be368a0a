import ArgumentParser
import FlintCore
import FlintServer

/// `flint blocking …`: the project's blocking functions, beyond what `flint config` sets.
struct Blocking: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Try blocking functions before turning them on.", subcommands: [DryRun.self])

    /// `flint blocking dry-run`: the endpoint `blockingFunctions:dryRun` without HTTP.
    struct DryRun: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dry-run",
            abstract: "Replay a blocking function against the audit log's recent sign-ins and report what it would have refused or changed.",
            discussion: """
                The sign-ins of the last --days days (the 10,000 most recent), one call per account and sign-in method, \
                each event built as the live call builds it with the account as it is now (the log keeps no copy of it, nor \
                the user agent or a provider's credentials). The function is called but nothing it answers is applied; \
                the run is audited (BLOCKING_DRY_RUN, actor cli). As POST /flint/v1/projects/{p}/blockingFunctions:dryRun.
                """
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "The function's URL (default: the trigger's configured function).") var uri: String?
        @Option(help: "beforeSignIn (the sign-ins that issued tokens) or beforeCreate (those that created the account).")
        var trigger: String = ProjectConfig.BlockingTrigger.beforeSignIn.rawValue
        @Option(help: "The window, in days (1 to \(BlockingDryRun.maxDays)).") var days: Int = BlockingDryRun.defaultDays
        @Flag(help: "Print the report as the endpoint's JSON.") var json = false

        func run() async throws {
            var body: [String: JSONValue] = ["trigger": .string(trigger), "days": .number(Double(days))]
            if let uri { body["functionUri"] = .string(uri) }
            let report = try await withUserConsole(store, command: "flint blocking dry-run") { try await $0.blockingDryRun(body) }
            if json {
                print(try jsonText(report))
                return
            }
            for line in Self.lines(report) { print(line) }
        }

        /// The report for a person: the counts, then one line per call that was not simply allowed.
        static func lines(_ report: JSONValue) -> [String] {
            func count(_ key: String) -> String {
                if case .number(let value)? = report[key] { return "\(Int(value))" }
                return "0"
            }
            var lines = [
                "\(report["trigger"]?.stringValue ?? "") \(report["functionUri"]?.stringValue ?? "") since \(report["since"]?.stringValue ?? "")",
                "sign-ins \(count("signIns")), calls \(count("replayed")): allowed \(count("allowed")), changed \(count("changed")), "
                    + "refused \(count("refused")), failed \(count("failed")); skipped (deleted) \(count("skipped")), not run \(count("notRun"))"
                    + (report["truncated"]?.boolValue == true ? "; more sign-ins than read or replayed" : ""),
            ]
            for row in report["results"]?.arrayValue ?? [] {
                let what = row["message"]?.stringValue ?? (row["changes"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ",")
                lines.append(
                    [
                        row["outcome"]?.stringValue ?? "", row["uid"]?.stringValue ?? "", row["time"]?.stringValue ?? "",
                        row["method"]?.stringValue ?? "", what,
                    ].joined(separator: "  "))
            }
            return lines
        }
    }
}
