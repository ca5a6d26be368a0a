import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The dashboard page: the store's hourly counters over the last 24 hours or 30 days (``ConsoleDashboard``).
extension ConsoleRoutes {
    func dashboard(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let period = ConsoleForm.query("range", in: request).flatMap(ConsoleDashboard.Period.init(rawValue:)) ?? .day
        let node = flow.node
        // This node's latest counts first, so the page shows what just happened here; the flush service retries a
        // failure, which is logged there.
        try? await node.metrics.stats.flush(to: node.store)
        let dashboard = ConsoleDashboard(period: period, now: node.clock.now())
        let (from, to) = dashboard.range
        let counts = try await node.store.read { try await $0.stats(from: from, to: to, bucket: period.bucket) }
        return pages.page("dashboard", title: "Dashboard", dashboard.page(counts), caller: caller)
    }
}
