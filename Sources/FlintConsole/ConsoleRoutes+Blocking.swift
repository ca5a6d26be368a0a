import FlintCore
import FlintServer
import Hummingbird

/// The settings page's dry run of a blocking function (``ConsoleBlockingFunctions``): the admin endpoint's
/// ``BlockingDryRun`` with the form as its body, run as the operator (the `BLOCKING_DRY_RUN` audit event names them),
/// answered by the settings page with the report, or with the refusal beside the form.
extension ConsoleRoutes {
    func blockingDryRun(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            var data = settingsData().merging(ConsoleBlockingFunctions.echo(form)) { $1 }
            do {
                var report: BlockingDryRunReport?
                try await asOperator(caller, context: context) {
                    let body = ConsoleBlockingFunctions.dryRunBody(form)
                    report = try await BlockingDryRun(node: flow.node).run(try WireDecoder.decode(BlockingDryRun.Request.self, from: body))
                }
                if let report { data["dryRun"] = ConsoleBlockingFunctions.report(report) }
            } catch let error as AuthError {
                data["errors"] = ["dryRun": error.detail ?? error.message]
                return pages.page("settings", title: "Settings", data, caller: caller, status: .badRequest)
            }
            return pages.page("settings", title: "Settings", data, caller: caller)
        }
    }
}
