import Dispatch
import NIOCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Apple stand-in's settings.
struct AppleSettings: Sendable {
    let standIn: AppleStandIn
    /// The loopback port the stand-in's keys are served on (Flint's `--idp-stand-in apple.com=http://127.0.0.1:PORT`).
    let port: Int
    /// Sign-ins per second the pre-minted tokens suffice for, over warm-up + measured time.
    let rate: Int
    let group: any EventLoopGroup
}

/// One pre-minted sign-in: the ID token and the raw nonce whose hash it carries.
struct AppleCredential: Sendable {
    let idToken: String
    let rawNonce: String
}

extension Runner {
    /// `apple`: returning users (each client's accounts signed in once before the clock starts), or `applenew`: a new
    /// Apple user, so a new account, every time. Every sign-in presents a token minted beforehand with a nonce of its
    /// own (Flint spends nonces once), so the client's signing is not in the measurement.
    func appleSignIns(newUsers: Bool) async throws -> ([ClientTally], [String: Double]) {
        guard let apple = settings.apple else {
            throw BenchError(
                "apple needs --idp-port PORT, the port of flint serve's --idp-stand-in apple.com=http://127.0.0.1:PORT (scripts/bench sets both)")
        }
        let keys = try await KeysServer.start(group: apple.group, port: apple.port, jwks: try apple.standIn.jwks())
        do {
            let result = try await appleSignIns(newUsers: newUsers, apple: apple)
            await keys.stop()
            return result
        } catch {
            await keys.stop()
            throw error
        }
    }

    private func appleSignIns(newUsers: Bool, apple: AppleSettings) async throws -> ([ClientTally], [String: Double]) {
        try await api.enableApple(bundleID: apple.standIn.bundleID)
        let run = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let concurrency = settings.concurrency
        let owned = ownedUsers()
        // Returning users: the same subjects in every run (a run's setup signs in accounts an earlier one made).
        let subject: @Sendable (Int, Int) -> String = { client, index in
            newUsers ? "new.\(run).\(client).\(index)" : "001000.bench.\(owned[client][index % owned[client].count])"
        }
        let seconds = Double((settings.warmup + settings.duration).nanoseconds) / 1e9
        let perClient = max(1, Int((Double(apple.rate) * seconds / Double(concurrency)).rounded(.up)))
        let clock = ContinuousClock()
        let mintStart = clock.now
        let pools = try Self.mint(apple.standIn, clients: concurrency, perClient: perClient, run: run, subject: subject)
        let mintTime = clock.now - mintStart
        FlintBench.printErr(
            "\(newUsers ? "applenew" : "apple"): \(concurrency * perClient) \(apple.standIn.alg) tokens minted in "
                + fixed(Double(mintTime.nanoseconds) / 1e9, 1) + " s (\(perClient) per client, --idp-rate \(apple.rate))")
        if !newUsers {
            let setup = try Self.mint(
                apple.standIn, clients: concurrency, perClient: owned[0].count, run: run + "s", subject: subject)
            _ = try await eachClient { client in
                for credential in setup[client] {
                    let reply = try await api.signInWithApple(idToken: credential.idToken, rawNonce: credential.rawNonce)
                    guard reply.ok else { throw BenchError("apple setup: signInWithIdp: HTTP \(reply.status) \(reply.text)") }
                }
            }
        }
        let window = makeWindow(clock)
        let tallies = await clients { client in
            let pool = pools[client]
            return await repeatingSteps("signInWithIdp", window: window) { index in
                guard index < pool.count else { throw BenchError("out of pre-minted tokens: raise --idp-rate") }
                let credential = pool[index]
                let reply = try await api.signInWithApple(idToken: credential.idToken, rawNonce: credential.rawNonce)
                return reply.ok ? nil : StepFailure(step: "signInWithIdp", reply: reply)
            }
        }
        return (tallies, ["tokens_per_client": Double(perClient), "mint_s": Double(mintTime.nanoseconds) / 1e9])
    }

    /// `perClient` tokens for each client, `subject(client, index)` their `sub`, minted on every core.
    static func mint(
        _ standIn: AppleStandIn, clients: Int, perClient: Int, run: String, subject: @Sendable (Int, Int) -> String
    ) throws -> [[AppleCredential]] {
        let now = Int(Date().timeIntervalSince1970)
        let results = Mutex<[Int: Result<[AppleCredential], any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            let minted = Result { () throws -> [AppleCredential] in
                try (0..<perClient).map { index in
                    let sub = subject(client, index)
                    let nonce = "\(run)-\(client)-\(index)"
                    let email = String(sub.map { $0 == "." ? "-" : $0 }) + "@privaterelay.appleid.com"
                    return AppleCredential(idToken: try standIn.token(sub: sub, email: email, rawNonce: nonce, now: now), rawNonce: nonce)
                }
            }
            results.withLock { $0[client] = minted }
        }
        return try (0..<clients).map { client in try results.withLock { $0[client] }!.get() }
    }
}
