import AsyncHTTPClient
import FlintCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Tracing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Looks a user's new password up in the project's breached-password corpus (`flint.breachedPasswords`, in the
/// k-anonymity range format, ``BreachRange``): the range of its SHA-1 prefix is read from the operator's directory of
/// range files (on the thread pool, never the event loop), or fetched from the configured range endpoint (with
/// `Add-Padding`, so the answer's size tells an observer nothing), and a password seen at least `minimumCount` times
/// is refused with `PASSWORD_DOES_NOT_MEET_REQUIREMENTS`.
///
/// A range that cannot be read (a file missing from the download, an endpoint down or slow) lets the password through
/// by default, with a warning and `flint_breached_password_checks_total{outcome="unavailable"}`: the corpus is a
/// second line of defence after the password policy, and a sign-up path that fails whenever a third party does would
/// turn its outage into Flint's. A project that prefers to refuse sets `whenUnavailable: REFUSE`.
struct BreachedPasswordCheck: Sendable {
    var client: HTTPClient = .shared
    let logger: Logger
    let metrics: FlintMetrics
    /// Traces each call to the range endpoint (``OutgoingCall``) when set.
    var tracer: (any Tracer)? = nil

    /// The largest range answer read: real ranges are about 40 KB with padding.
    static let maxRangeSize = 1 << 20

    /// What a lookup found.
    enum Outcome: Equatable {
        /// Not in the corpus, or seen fewer times than the threshold.
        case clear
        /// Seen this many times, at least the threshold.
        case found(Int)
        /// The range could not be read, for this reason.
        case unavailable(String)
    }

    /// Refuses `password` when the corpus lists it often enough.
    /// - Throws: ``AuthError/breachedPassword``, or ``AuthError/breachCheckUnavailable`` when its range cannot be
    ///   read and the project refuses what it cannot check.
    func check(_ password: String, against corpus: ProjectConfig.BreachedPasswords) async throws(AuthError) {
        switch await lookUp(password, in: corpus) {
        case .clear:
            metrics.breachedPasswordCheck(outcome: "clear")
        case .found:
            metrics.breachedPasswordCheck(outcome: "found")
            throw AuthError.breachedPassword
        case .unavailable(let reason):
            metrics.breachedPasswordCheck(outcome: "unavailable")
            logger.warning(
                "breached-password range unavailable: the new password was \(corpus.refuseWhenUnavailable ? "refused" : "let through unchecked")",
                metadata: ["reason": "\(reason)"])
            if corpus.refuseWhenUnavailable { throw AuthError.breachCheckUnavailable }
        }
    }

    /// Looks `password` up.
    func lookUp(_ password: String, in corpus: ProjectConfig.BreachedPasswords) async -> Outcome {
        let (prefix, suffix) = BreachRange.split(password)
        let range: [UInt8]
        switch corpus.source {
        case .directory(let directory):
            let candidates = ["\(directory)/\(prefix).txt", "\(directory)/\(prefix)"]
            let read = try? await NIOThreadPool.singleton.runIfActive { () -> [UInt8]? in
                for path in candidates { if let data = FileManager.default.contents(atPath: path) { return Array(data) } }
                return nil
            }
            guard let read else { return .unavailable("a range file is missing from \(directory)") }
            range = read
        case .endpoint(let base):
            var request = HTTPClientRequest(url: base + prefix)
            request.headers.add(name: "Add-Padding", value: "true")
            request.headers.add(name: "User-Agent", value: "Flint")
            do {
                let timeout = corpus.timeout.components
                let response = try await OutgoingCall.execute(
                    request, timeout: .nanoseconds(timeout.seconds * 1_000_000_000 + timeout.attoseconds / 1_000_000_000), client: client,
                    tracer: tracer, peer: "breached-passwords")
                guard response.status == .ok else { return .unavailable("the range endpoint answered \(response.status.code)") }
                range = Array(buffer: try await response.body.collect(upTo: Self.maxRangeSize))
            } catch {
                return .unavailable("the range endpoint failed: \(type(of: error))")
            }
        }
        let count = BreachRange.count(of: suffix, in: range)
        return count >= corpus.minimumCount ? .found(count) : .clear
    }
}
