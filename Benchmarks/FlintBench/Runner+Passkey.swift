#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `passkeyEnrollment:start`'s answer, as far as the software authenticator needs it.
private struct CreationOptions: Decodable {
    struct Options: Decodable {
        struct RelyingParty: Decodable { let id: String }
        let challenge: String
        let rp: RelyingParty
    }
    let credentialCreationOptions: Options
}

extension Runner {
    /// The web page the passkey ceremonies run on: `http://localhost` (an authorized domain in dev mode, allowed over
    /// plain http as a loopback host), so the RP ID is `localhost`.
    static let passkeyOrigin = "http://localhost"

    /// `passkey`: each client's accounts (email link) get a passkey from a software authenticator before the clock
    /// starts; an operation is one sign-in, `passkeySignIn:start` + `:finalize` with an assertion over the challenge.
    /// The assertion (a P-256 signature) can only be made once the challenge is known, so it is inside the operation;
    /// its time is kept apart (`client_sign_us`).
    func passkeySignIns() async throws -> ([ClientTally], [String: Double]) {
        let run = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let owned = ownedUsers()
        let passkeys = try await eachClient { client in
            var mine: [SoftwarePasskey] = []
            for user in owned[client] { mine.append(try await enrolPasskey(email: "bench-passkey-\(run)-\(user)@example.com")) }
            return mine
        }
        let clock = ContinuousClock()
        let window = makeWindow(clock)
        let tallies = await clients { client in
            var keys = passkeys[client]
            var signNanos: Int64 = 0
            var signed = 0
            var tally = await repeatingSteps("passkey sign-in", window: window) { index in
                let slot = index % keys.count
                let started = try await api.passkey("passkeySignIn:start", "{}", origin: Self.passkeyOrigin)
                guard started.ok, let challenge = JSONText.stringField("challenge", in: started.body) else {
                    return StepFailure(step: "passkeySignIn:start", reply: started)
                }
                let signStart = clock.now
                let assertion = try keys[slot].assertion(challenge: challenge)
                let key = keys[slot]
                let body =
                    "{\"authenticatorAuthenticationResponse\":{\"id\":\"" + key.credentialIDText + "\",\"rawId\":\"" + key.credentialIDText
                    + "\",\"type\":\"public-key\",\"response\":{\"clientDataJSON\":\"" + Base64URL.encode(assertion.clientData)
                    + "\",\"authenticatorData\":\"" + Base64URL.encode(assertion.authenticatorData) + "\",\"signature\":\""
                    + Base64URL.encode(assertion.signature) + "\",\"userHandle\":\"" + Base64URL.encode(Array(key.localID.utf8)) + "\"}}}"
                signNanos += (clock.now - signStart).nanoseconds
                signed += 1
                let done = try await api.passkey("passkeySignIn:finalize", body, origin: Self.passkeyOrigin)
                return done.ok ? nil : StepFailure(step: "passkeySignIn:finalize", reply: done)
            }
            tally.clientNanos = signNanos
            tally.clientWorkCount = signed
            return tally
        }
        let nanos = tallies.reduce(0) { $0 + $1.clientNanos }
        let count = tallies.reduce(0) { $0 + $1.clientWorkCount }
        return (tallies, ["client_sign_us": count == 0 ? 0 : Double(nanos) / Double(count) / 1e3])
    }

    /// A new account (email link) with a passkey enrolled by a software authenticator; the passkey, its counter at 0.
    func enrolPasskey(email: String) async throws -> SoftwarePasskey {
        let first: Reply
        switch try await api.emailLinkFirstFactor(email) {
        case .success(let reply): first = reply
        case .failure(let failure): throw BenchError("\(failure.step) \(email): HTTP \(failure.reply.status) \(failure.reply.text)")
        }
        guard let idToken = JSONText.stringField("idToken", in: first.body) else { throw BenchError("signInWithEmailLink: \(first.text)") }
        let started = try await api.passkey(
            "passkeyEnrollment:start", "{\"idToken\":" + JSONText.quote(idToken) + "}", origin: Self.passkeyOrigin)
        guard started.ok, let options = try? JSONDecoder().decode(CreationOptions.self, from: Data(started.body)) else {
            throw BenchError("passkeyEnrollment:start: HTTP \(started.status) \(started.text)")
        }
        var passkey = SoftwarePasskey(rpID: options.credentialCreationOptions.rp.id, origin: Self.passkeyOrigin)
        let clientData = passkey.clientData(type: "webauthn.create", challenge: options.credentialCreationOptions.challenge)
        let body =
            "{\"idToken\":" + JSONText.quote(idToken) + ",\"name\":\"flint-bench\",\"authenticatorRegistrationResponse\":{\"id\":\""
            + passkey.credentialIDText + "\",\"rawId\":\"" + passkey.credentialIDText
            + "\",\"type\":\"public-key\",\"authenticatorAttachment\":\"platform\",\"response\":{\"clientDataJSON\":\""
            + Base64URL.encode(clientData) + "\",\"attestationObject\":\"" + Base64URL.encode(passkey.attestationObject())
            + "\",\"transports\":[\"internal\",\"hybrid\"]}}}"
        let done = try await api.passkey("passkeyEnrollment:finalize", body, origin: Self.passkeyOrigin)
        guard done.ok, let localID = JSONText.stringField("localId", in: done.body) else {
            throw BenchError("passkeyEnrollment:finalize: HTTP \(done.status) \(done.text)")
        }
        passkey.localID = localID
        return passkey
    }
}
