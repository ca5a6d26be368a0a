import CoreMetrics
import FlintCore
import FlintStore
public import Prometheus
import Synchronization

/// A node's metrics: a Prometheus registry written through swift-metrics' factory API (``factory``), read by
/// `GET /metrics`. Each node owns its registry, so test nodes in one process count apart; `flint serve` also
/// bootstraps `MetricsSystem` with ``factory``, so what libraries report through swift-metrics lands here too.
///
/// Series that do not depend on the event (store timers, in-flight meters) are made once; the per-request timers and
/// sign-in counters, met on every request, are kept in a table of their own after their first use (one lock and one
/// hash, where the registry validates names and labels and builds keys each time); the rare others are looked up in
/// the registry per event. Label values are bounded: routes are the router's templates, codes are Firebase's, regions
/// are ISO codes.
public final class FlintMetrics: Sendable {
    /// The registry `GET /metrics` renders.
    public let registry: PrometheusCollectorRegistry
    /// swift-metrics' factory over ``registry``.
    public let factory: PrometheusMetricsFactory

    let storeReads: any TimerHandler
    let storeWrites: any TimerHandler
    let storeReadsInFlight: any MeterHandler
    let storeWritesInFlight: any MeterHandler
    /// Request timers by route, method and status, and sign-in counters by method and outcome, once made.
    private let requestTimers = SeriesCache<RequestSeries, any TimerHandler>()
    private let signInCounters = SeriesCache<SignInSeries, any CounterHandler>()
    /// The console dashboard's counters: what is counted here is noted there too, so the two agree.
    package let stats: StatsTally

    private struct RequestSeries: Hashable, Sendable {
        let route: String
        let method: String
        let status: Int
    }

    private struct SignInSeries: Hashable, Sendable {
        let method: String
        let outcome: String
    }

    /// The metric names, for docs/operations.md and the Grafana dashboard (`docs/grafana-dashboard.json`).
    enum Name {
        static let requestDuration = "flint_http_request_duration_seconds"
        static let signIns = "flint_sign_ins_total"
        static let limitRefusals = "flint_limit_refusals_total"
        static let codesSent = "flint_sms_codes_sent_total"
        static let codesRefused = "flint_sms_codes_refused_total"
        static let budgetAlerts = "flint_sms_budget_alerts_total"
        static let deliveries = "flint_deliveries_total"
        static let outboxBacklog = "flint_outbox_backlog"
        static let storeDuration = "flint_store_operation_duration_seconds"
        static let storeInFlight = "flint_store_operations_in_flight"
        static let storeErrors = "flint_store_errors_total"
        static let keyAge = "flint_signing_key_age_seconds"
        static let keys = "flint_signing_keys"
        static let breachedPasswordChecks = "flint_breached_password_checks_total"
        /// Every name above.
        static let all = [
            requestDuration, signIns, limitRefusals, codesSent, codesRefused, budgetAlerts, deliveries, outboxBacklog, storeDuration,
            storeInFlight, storeErrors, keyAge, keys, breachedPasswordChecks,
        ]
    }

    /// A registry of its own, with Flint's histogram buckets; the dashboard's counters read the system clock.
    public convenience init() { self.init(clock: SystemClock()) }

    /// A registry of its own, with Flint's histogram buckets; the dashboard's counters stamp events with `clock`.
    init(clock: any WallClock) {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        factory.durationHistogramBuckets[Name.storeDuration] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        self.registry = registry
        self.factory = factory
        stats = StatsTally(clock: clock)
        storeReads = factory.makeTimer(label: Name.storeDuration, dimensions: [("operation", "read")])
        storeWrites = factory.makeTimer(label: Name.storeDuration, dimensions: [("operation", "write")])
        storeReadsInFlight = factory.makeMeter(label: Name.storeInFlight, dimensions: [("operation", "read")])
        storeWritesInFlight = factory.makeMeter(label: Name.storeInFlight, dimensions: [("operation", "write")])
    }

    /// Makes ``factory`` swift-metrics' global factory, so metrics reported through `MetricsSystem` by any library land
    /// in this registry too. Once per process (swift-metrics' rule): `flint serve` calls it for its one node.
    public func bootstrapMetricsSystem() {
        MetricsSystem.bootstrap(factory)
    }

    /// One answered request: its route template (or `unmatched`), method, status and time taken.
    func request(route: String, method: String, status: Int, nanoseconds: Int64) {
        let series = RequestSeries(route: route, method: method, status: status)
        requestTimers.handler(for: series) {
            factory.makeTimer(label: Name.requestDuration, dimensions: [("route", route), ("method", method), ("status", String(status))])
        }.recordNanoseconds(nanoseconds)
    }

    /// One answer of a sign-in endpoint: `method` (``SignInMethod``: `phone`, `password`, `emailLink`, `signUp`,
    /// `secondFactor`, `passkey`, `custom`, `idp`) and `outcome` (`success`, `second_factor_required`, or Firebase's error code). With
    /// the answer's `probe`, the dashboard counts a sign-in answered with tokens, and an account it created, by method
    /// (an anonymous sign-up as `anonymous`).
    func signIn(method: SignInMethod, outcome: String, probe: SignInProbe? = nil) {
        let method = method.rawValue
        let series = SignInSeries(method: method, outcome: outcome)
        signInCounters.handler(for: series) {
            factory.makeCounter(label: Name.signIns, dimensions: [("method", method), ("outcome", outcome)])
        }.increment(by: 1)
        guard let probe, outcome == "success" || outcome == "second_factor_required" else { return }
        let shown = probe.dashboardMethod(method)
        if outcome == "success" { stats.note(.signIn, shown) }
        if probe.createdAccount { stats.note(.newUser, shown) }
    }

    /// An error answer of a matched route, by its bounded label (``MetricsMiddleware/label(_:)``): the dashboard's
    /// errors (`/metrics` counts them by status in `flint_http_request_duration_seconds`).
    func errorAnswer(code: String) {
        stats.note(.error, code)
    }

    /// A new password looked up in the breached-password corpus, by `outcome`: `clear`, `found` (refused), or
    /// `unavailable` (its range could not be read; let through or refused as the project's config says).
    func breachedPasswordCheck(outcome: String) {
        factory.makeCounter(label: Name.breachedPasswordChecks, dimensions: [("outcome", outcome)]).increment(by: 1)
    }

    /// A request refused by an abuse limit (`TOO_MANY_ATTEMPTS_TRY_LATER`, `QUOTA_EXCEEDED`) on `route`.
    func limitRefusal(route: String, code: String) {
        factory.makeCounter(label: Name.limitRefusals, dimensions: [("route", route), ("code", code)]).increment(by: 1)
    }

    /// An SMS code handed to the provider, by the number's region (ISO 3166, `unknown` without one) and purpose
    /// (`signIn`, `secondFactor`…).
    func codeSent(region: String?, purpose: String) {
        factory.makeCounter(label: Name.codesSent, dimensions: [("region", region ?? "unknown"), ("purpose", purpose)]).increment(by: 1)
        stats.note(.smsSent, region ?? "unknown")
    }

    /// An SMS code not sent, by region and reason (``CodeRefusal``).
    func codeRefused(region: String?, reason: CodeRefusal) {
        factory.makeCounter(label: Name.codesRefused, dimensions: [("region", region ?? "unknown"), ("reason", reason.rawValue)])
            .increment(by: 1)
        stats.note(.smsRefused, region ?? "unknown")
    }

    /// An email kept in the dev outbox, which is its delivery in dev mode. `/metrics` has no series for it (no provider
    /// took it); the dashboard counts it as sent, by `kind`, as texts to the dev outbox count as codes sent.
    func emailKeptInDevOutbox(kind: String) {
        stats.note(.emailSent, kind)
    }

    /// A text that took the project's day to 80% of its SMS budget (`flint.smsLimits.dailyBudget`): once per UTC day.
    func smsBudgetAlert() {
        factory.makeCounter(label: Name.budgetAlerts, dimensions: []).increment(by: 1)
    }

    /// One delivery attempt's result: `channel` (`sms`, `email`), `result` (`sent`, `retry`, `failed`). The dashboard
    /// counts emails sent and failed by `kind` (the email's request type); texts through ``codeSent(region:purpose:)``.
    func delivery(channel: String, result: String, kind: String = "") {
        factory.makeCounter(label: Name.deliveries, dimensions: [("channel", channel), ("result", result)]).increment(by: 1)
        guard channel == "email" else { return }
        switch result {
        case "sent": stats.note(.emailSent, kind)
        case "failed": stats.note(.emailFailed, kind)
        default: break
        }
    }
}

/// Why an SMS code was not sent (the `reason` label of `flint_sms_codes_refused_total`): a closed set of label values.
enum CodeRefusal: String, Sendable {
    /// The project's `smsRegionConfig` does not allow the number's region.
    case region
    /// A send limit (per number, client IP or country) was reached.
    case limit
    /// The project's daily SMS budget is spent (`QUOTA_EXCEEDED`).
    case budget
    /// The provider refused the message or could not be reached.
    case delivery
}

/// Metric handlers by series, made on first use and kept: one lock and one hash per event instead of the registry's
/// name and label checks.
private final class SeriesCache<Series: Hashable & Sendable, Handler: Sendable>: Sendable {
    private let handlers = Mutex<[Series: Handler]>([:])

    /// The handler of `series`, made with `make` the first time.
    func handler(for series: Series, make: () -> Handler) -> Handler {
        handlers.withLock { handlers in
            if let handler = handlers[series] { return handler }
            let handler = make()
            handlers[series] = handler
            return handler
        }
    }
}
