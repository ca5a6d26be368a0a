import FlintCore
import FlintStore
import Logging

/// Delivery of committed email records: claim the record (so one node sends it), send, record the outcome.
/// A record whose node died mid-delivery is claimed again when its lease runs out (at-least-once delivery).
/// Outside dev mode the body, link and code are dropped from the record once it is sent or has failed for good.
extension ActionCodes {
    /// How long a claim on a record lasts before another node may take it over.
    static let outboxLease: Duration = .seconds(600)
    /// Delivery attempts (each with the sender's own retries) before a record is marked failed.
    static let outboxMaxAttempts = 5

    /// Outside dev mode, the dev outbox is no delivery: sending needs an SMTP server.
    var emailDeliveryUnavailable: Bool { !node.settings.devMode && email.isDevOutbox }

    /// Delivers one record now; errors are recorded, never thrown.
    func deliverEmail(sequence: Int64) async {
        let now = node.clock.now()
        let claimed: OutboxMessage?
        do {
            claimed = try await node.store.write { tx in try await tx.claimOutbox(sequence: sequence, now: now, leaseUntil: now + Self.outboxLease) }
        } catch {
            node.logger.warning("outbox claim failed", metadata: ["seq": "\(sequence)", "errorType": "\(type(of: error))"])
            return
        }
        guard let record = claimed else { return }
        guard let parts = record.email else {
            do {
                try await node.store.write { tx in
                    try await tx.finishOutbox(sequence: sequence, status: .failed, detail: "not an email", redact: false)
                }
            } catch {
                node.logger.warning("outbox record could not be closed", metadata: ["seq": "\(sequence)", "errorType": "\(type(of: error))"])
            }
            return
        }
        let message = EmailMessage(to: record.recipient, subject: parts.subject, text: record.body, html: parts.html, locale: record.locale)
        let (status, detail): (OutboxStatus, String?)
        do {
            let reply = try await email.send(message)
            (status, detail) = (.sent, reply)
            node.logger.info(
                "email delivered", metadata: ["seq": "\(sequence)", "requestType": "\(parts.requestType)", "attempt": "\(record.attempts)"])
        } catch let error as EmailDeliveryError {
            switch error {
            case .permanent(let reason):
                (status, detail) = (.failed, reason)
                node.logger.error("email refused for good", metadata: ["seq": "\(sequence)", "reason": "\(reason)"])
            case .transient(let reason):
                let last = record.attempts >= Self.outboxMaxAttempts
                (status, detail) = (last ? .failed : .queued, reason)
                node.logger.warning(
                    last ? "email delivery gave up" : "email delivery will be retried",
                    metadata: ["seq": "\(sequence)", "attempt": "\(record.attempts)", "reason": "\(reason)"])
            }
        } catch {
            let last = record.attempts >= Self.outboxMaxAttempts
            (status, detail) = (last ? .failed : .queued, "\(type(of: error))")
            node.logger.warning("email delivery failed", metadata: ["seq": "\(sequence)", "errorType": "\(type(of: error))"])
        }
        node.metrics.delivery(channel: "email", result: status == .queued ? "retry" : status.rawValue, kind: parts.requestType.rawValue)
        let redact = status != .queued && !node.settings.devMode
        do {
            try await node.store.write { tx in try await tx.finishOutbox(sequence: sequence, status: status, detail: detail, redact: redact) }
        } catch {
            node.logger.warning("outbox update failed", metadata: ["seq": "\(sequence)", "errorType": "\(type(of: error))"])
        }
    }

    /// Delivers every record that is due (queued for a retry, or abandoned by a node); run periodically.
    func deliverDueEmail() async {
        guard !email.isDevOutbox else { return }
        let now = node.clock.now()
        let due: [Int64]
        do {
            due = try await node.store.read { try await $0.dueOutbox(now: now, limit: 100) }
        } catch {
            node.logger.warning("reading due email failed; tried again at the next reload", metadata: ["errorType": "\(type(of: error))"])
            return
        }
        for sequence in due { await deliverEmail(sequence: sequence) }
    }
}
