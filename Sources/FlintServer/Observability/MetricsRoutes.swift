import CoreMetrics
import FlintCore
import FlintStore
import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `GET /metrics`: the node's registry in Prometheus' text exposition format (version 0.0.4), for the admin
/// credential or the `--metrics-token` bearer. Gauges of state kept elsewhere are read at scrape time: the outbox
/// backlog (one indexed count in the store) and the signing keys' age.
struct MetricsRoutes: Sendable {
    let node: Node
    let keys: KeyCache

    /// The path Prometheus scrapes.
    static let path = "/metrics"

    /// The exposition.
    func scrape(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try authorize(request, context: context)
        try await refreshGauges()
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: node.metrics.registry.emitToBuffer())))
    }

    /// The admin credential, or the metrics token as `Authorization: Bearer …` (compared in constant time).
    private func authorize(_ request: Request, context: FlintRequestContext) throws(AuthError) {
        if context.isAdmin { return }
        if let token = node.settings.metricsToken, !token.isEmpty, let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer",
                constantTimeEquals(Array(String(parts[1]).trimmingSpaces.utf8), Array(token.utf8))
            {
                return
            }
        }
        try context.requireAdmin()
    }

    /// Sets the gauges whose truth is in the store or the key cache.
    private func refreshGauges() async throws {
        let factory = node.metrics.factory
        let backlog = try await node.store.read { try await $0.outboxBacklog() }
        for channel in [OutboxChannel.sms, .email, .apns] {
            for status in [OutboxStatus.queued, .sending] {
                let count = backlog.first { $0.channel == channel && $0.status == status }?.count ?? 0
                factory.makeMeter(label: FlintMetrics.Name.outboxBacklog, dimensions: [("channel", channel.rawValue), ("status", status.rawValue)])
                    .set(Int64(count))
            }
        }
        let ring = keys.current
        let now = node.clock.now()
        if let signer = ring.signer(at: now) {
            factory.makeMeter(label: FlintMetrics.Name.keyAge, dimensions: []).set(Double((now - signer.activatesAt).inMilliseconds) / 1000)
        }
        let states = ring.keys.map { ring.state(of: $0, at: now) }
        for (state, label) in [(KeyRing.State.active, "active"), (.scheduled, "scheduled"), (.retired, "retired_published")] {
            factory.makeMeter(label: FlintMetrics.Name.keys, dimensions: [("state", label)]).set(Int64(states.filter { $0 == state }.count))
        }
    }
}
