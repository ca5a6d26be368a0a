import FlintCore
import FlintStore
import Logging

/// One limit a text counts against, with the answer past it.
struct SMSSendLimit: Sendable {
    let limit: Limit
    /// `TOO_MANY_ATTEMPTS_TRY_LATER` for a number, address or country; `QUOTA_EXCEEDED` for the budget.
    let refusal: AuthError
}

/// A text refused by a limit, thrown inside the send's transaction so that nothing of the send stays: not the
/// new code session, not the hits the other limits took.
struct SMSSendRefused: Error {
    let limit: Limit
    let refusal: AuthError
}

/// The project's texts of the day reached 80% of the budget: logged once per UTC day, by the node whose send crossed.
struct SMSBudgetAlert: Sendable, Equatable {
    let sent: Int64
    let budget: Int64
}

/// SMS spend protection (`flint.smsLimits`): texts per client address per hour and per day, per destination country
/// per hour, and the project's daily budget, on the shared counters (exact across nodes) beside the per-number caps
/// (``smsSendLimits(_:_:)``). Every real text counts one hit on each, reserved in the send's transaction; a failed
/// hand-over gives them back. Fictional numbers are never texted and count nowhere.
extension PhoneCodes {
    private static let hour: Duration = .seconds(3600)
    private static let day: Duration = .seconds(86_400)

    /// Every limit a text to `phone` at the request of `clientIP` counts against, in the order they answer: the
    /// number's, the address's and the country's (`TOO_MANY_ATTEMPTS_TRY_LATER`), then the budget (`QUOTA_EXCEEDED`).
    /// A limit set to 0 is off (the budget then counts without refusing). For a text to the dev outbox, which
    /// delivers nothing and costs nothing (`delivered` false), only the per-number caps apply.
    func textLimits(to phone: PhoneNumber, clientIP: String?, config: ProjectConfig.SMSLimits, delivered: Bool) -> [SMSSendLimit] {
        var limits = smsSendLimits(phone.e164, config)
        guard delivered else { return limits.map { SMSSendLimit(limit: $0, refusal: .tooManyAttempts) } }
        if let clientIP {
            limits.append(Limit(key: .smsSends(clientIP: clientIP, per: .hour), max: config.perIPPerHour, window: Self.hour))
            limits.append(Limit(key: .smsSends(clientIP: clientIP, per: .day), max: config.perIPPerDay, window: Self.day))
        }
        let country = phone.regionCode ?? "+\(phone.countryCallingCode)"
        limits.append(Limit(key: .smsSends(country: country, per: .hour), max: config.perCountryPerHour, window: Self.hour))
        var sendLimits = limits.filter { $0.max > 0 }.map { SMSSendLimit(limit: $0, refusal: .tooManyAttempts) }
        let budget = Limit(key: .smsBudget, max: config.dailyBudget > 0 ? config.dailyBudget : .max, window: Self.day)
        sendLimits.append(SMSSendLimit(limit: budget, refusal: .smsQuotaExceeded))
        return sendLimits
    }

    /// Texts sent so far in the current UTC day across the project, and the daily budget (0 when off): for metrics.
    func smsBudgetUse() async throws -> (sent: Int64, budget: Int64) {
        let now = node.clock.now()
        let day = Limit(key: .smsBudget, max: 0, window: Self.day)
        let sent = try await node.store.read { try await $0.counterValue(key: day.key, windowStart: day.windowStart(now)) }
        return (sent, node.config.current.smsLimits.dailyBudget)
    }

    /// Runs a send's transaction; a limit it refused at is answered, and its lockout recorded (the transaction
    /// rolled back, so the event gets a write of its own).
    func refusingPastLimits<T: Sendable>(at now: Instant, region: String?, _ send: () async throws -> T) async throws -> T {
        do {
            return try await send()
        } catch let refused as SMSSendRefused {
            await node.recordLockout(refused.limit, at: now)
            node.metrics.codeRefused(region: region, reason: refused.refusal == .smsQuotaExceeded ? .budget : .limit)
            throw refused.refusal
        }
    }

    /// After a text that took the day's use (`sent`, across the project) to 80% of the budget or more: the alert, when
    /// no node has raised it yet today (a marker counter, set once per UTC day). Best effort, after the send's commit: a
    /// failure is logged, and the next text tries again.
    func budgetAlert(sent: Int64, limits: [SMSSendLimit], now: Instant) async -> SMSBudgetAlert? {
        guard let budget = limits.first(where: { $0.limit.key == .smsBudget })?.limit, budget.max < .max, sent <= budget.max,
            sent * 5 >= budget.max * 4
        else { return nil }
        let start = budget.windowStart(now)
        let marker = CounterKey.smsBudgetAlert
        do {
            let first = try await node.store.write { [self] tx in
                try await raiseBudgetAlert(on: marker, windowStart: start, expiresAt: start + budget.window, in: tx)
            }
            return first ? SMSBudgetAlert(sent: sent, budget: budget.max) : nil
        } catch {
            node.logger.warning("sms budget alert check failed", metadata: ["errorType": "\(type(of: error))"])
            return nil
        }
    }

    /// Sets the day's alert marker; true if this call set it (no node had yet).
    private func raiseBudgetAlert(on marker: CounterKey, windowStart start: Instant, expiresAt: Instant, in tx: some Writes) async throws -> Bool {
        guard try await tx.counterValue(key: marker, windowStart: start) == 0 else { return false }
        return try await tx.incrementCounter(key: marker, windowStart: start, expiresAt: expiresAt) == 1
    }

    /// Logs the budget alert (warning, once per UTC day across nodes).
    func logBudgetAlert(_ alert: SMSBudgetAlert) {
        node.metrics.smsBudgetAlert()
        node.logger.warning(
            "sms daily budget 80% used", metadata: ["sentToday": "\(alert.sent)", "dailyBudget": "\(alert.budget)"])
    }
}

extension [SMSSendLimit] {
    /// The counters.
    var limits: [Limit] { map(\.limit) }

    /// Counts one text on each limit inside `tx`, as its closing statement (on PostgreSQL the send's session and
    /// text ride with it, and a transaction that wrote nothing before commits with it).
    /// - Throws: ``SMSSendRefused`` for the first limit past its maximum: nothing of the send is kept, not the session,
    ///   not its text, not the hits the other limits took.
    /// - Returns: the day's texts across the project after this one (the budget counter).
    func reserve(in tx: any CountersWrites, now: Instant) async throws -> Int64 {
        let reservations = limits.hitWindows(now).enumerated().map { i, window in
            CounterReservation(key: window.key, windowStart: window.windowStart, expiresAt: window.expiresAt, max: self[i].limit.max)
        }
        do {
            let hits = try await tx.reserveCounters(reservations)
            return zip(self, hits).first { $0.0.limit.key == .smsBudget }?.1 ?? 0
        } catch let past as CounterPastLimit {
            guard let item = first(where: { $0.limit.key == past.key }) else { throw past }
            throw SMSSendRefused(limit: item.limit, refusal: item.refusal)
        }
    }
}
