import FlintCore
import FlintServer
import FlintStore
import HTTPTypes
import Hummingbird
import NIOCore

/// The dashboard page: the store's hourly counters over the last 24 hours, or 30 days, 90 days or a year by UTC day
/// (``ConsoleDashboard``), and its daily usage as CSV (``ConsoleUsageCSV``), which every operator may download.
extension ConsoleRoutes {
    func dashboard(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let period = ConsoleForm.query("range", in: request).flatMap(ConsoleDashboard.Period.init(rawValue:)) ?? .day
        let (dashboard, counts) = try await usage(period)
        var data = dashboard.page(counts)
        data["smsBudget"] = try await smsBudget().data
        return pages.page("dashboard", title: "Dashboard", data, caller: caller)
    }

    func usageCSV(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let asked = ConsoleForm.query("range", in: request) ?? ConsoleDashboard.Period.month.rawValue
        guard let period = ConsoleDashboard.Period(rawValue: asked), ConsoleDashboard.Period.daily.contains(period) else {
            return pages.message("Usage", "The CSV download covers 30d, 90d or 1y.", caller: caller, status: .badRequest)
        }
        let (dashboard, counts) = try await usage(period)
        let csv = ConsoleUsageCSV(dashboard: dashboard)
        let headers: HTTPFields = [
            .contentType: "text/csv; charset=utf-8; header=present",
            .contentDisposition: "attachment; filename=\"\(csv.fileName)\"",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: csv.text(counts))))
    }

    /// The period's buckets and the store's counts in them, this node's latest counts flushed first so the page shows
    /// what just happened here (the flush service retries a failure, which is logged there).
    private func usage(_ period: ConsoleDashboard.Period) async throws -> (ConsoleDashboard, [StatCount]) {
        let node = flow.node
        try? await node.metrics.stats.flush(to: node.store)
        let dashboard = ConsoleDashboard(period: period, now: node.clock.now())
        let (from, to) = dashboard.range
        let counts = try await node.store.read { try await $0.stats(from: from, to: to, bucket: period.bucket) }
        return (dashboard, counts)
    }
}
