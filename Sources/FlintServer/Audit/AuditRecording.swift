import FlintCore
package import FlintStore
import Logging

/// Audit events recorded outside a flow's transaction: a refusal whose transaction rolled back, or an answer known
/// only once the handler returned. Every other event is appended inside the transaction of the decision it records
/// (``FlintStore/AuditWrites/audit(_:uid:at:_:)``), so it exists exactly when the decision was committed.
extension Node {
    /// Appends `event` in a write of its own. A failure is logged, never thrown: the answer stands either way.
    package func recordAudit(_ event: AuditEvent) async {
        do {
            try await store.write { tx in try await tx.appendAuditEvent(event) }
        } catch {
            logger.warning("audit event not recorded", metadata: ["kind": "\(event.kind)", "errorType": "\(type(of: error))"])
        }
    }

    /// Records that `limit` refused at `now`, once per limit and window across nodes (a marker counter decides;
    /// it is read first, so refusals after the first cost no write).
    func recordLockout(_ limit: Limit, at now: Instant) async {
        let start = limit.windowStart(now)
        let marker = CounterKey.lockoutRecorded(limit.key)
        let event = AuditOrigin.current.event(.lockout, uid: nil, at: now, limit.auditDetail)
        do {
            if try await store.read({ try await $0.counterValue(key: marker, windowStart: start) }) > 0 { return }
            try await store.write { tx in
                if try await tx.incrementCounter(key: marker, windowStart: start, expiresAt: start + limit.window) == 1 {
                    try await tx.appendAuditEvent(event)
                }
            }
        } catch {
            logger.warning("lockout not recorded", metadata: ["errorType": "\(type(of: error))"])
        }
    }
}

extension Limit {
    /// What a `LOCKOUT` event says about the limit: its counter key (what is limited, such as `pwfail:ip:…` or
    /// `sms-country:h:GB`), its maximum and its window.
    var auditDetail: [String: JSONValue] {
        ["limit": .string(key.rawValue), "max": .number(Double(max)), "windowSeconds": .number(Double(window.inSeconds))]
    }
}
