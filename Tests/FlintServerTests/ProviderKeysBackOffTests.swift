import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FlintServer

/// A stand-in for Google's JWKS address on loopback that counts its requests and answers 503 while told to fail.
final class FlakyJWKS: Sendable {
    private struct State {
        var failing = true
        var fetches = 0
        var port = 0
    }

    private let state = Mutex(State())
    /// The key set served when not failing.
    let keys: JSONValue

    init(publishing key: SigningKey) throws {
        keys = ["keys": [.object(try key.jwk().mapValues(JSONValue.string))]]
    }

    /// Requests received so far.
    var fetches: Int { state.withLock { $0.fetches } }
    /// `http://127.0.0.1:<port>`.
    var origin: String { "http://127.0.0.1:\(state.withLock { $0.port })" }

    /// Whether the key set is answered with 503 from now on.
    func fail(_ failing: Bool) {
        state.withLock { $0.failing = failing }
    }

    /// Runs `body` with the stand-in listening.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let router = Router()
        router.get("/oauth2/v3/certs") { _, _ -> Response in
            let failing = self.state.withLock { state -> Bool in
                state.fetches += 1
                return state.failing
            }
            guard !failing else { return Response(status: .serviceUnavailable) }
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: self.keys.serialized())))
        }
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            self.state.withLock { $0.port = port }
            try await body()
        }
    }
}

@Suite("Federated sign-in: a provider's JWKS address backs off after a failed fetch")
struct ProviderKeysBackOffTests {
    @Test("the pause is 5 seconds after a first failure, doubling with each failure in a row, at most 5 minutes")
    func pauses() {
        let pauses = [1, 2, 3, 6, 7, 40, Int.max].map(ProviderKeys.backOff(failures:))
        #expect(pauses == [.seconds(5), .seconds(10), .seconds(20), .seconds(160), .seconds(300), .seconds(300), .seconds(300)])
    }

    @Test("40 sign-ins against a JWKS answering 503 make one fetch; after the pause one more is tried, and a success ends the back-off")
    func oneFetchWhileDown() async throws {
        let signer = try StandInIssuer()
        let jwks = try FlakyJWKS(publishing: signer.key)
        try await jwks.serve {
            try await withFlint(configure: { $0.identityProviderStandIns = ["google.com": jwks.origin] }) { api in
                try await api.configureIdp("google.com", ["enabled": true, "clientId": .string(googleClientID), "clientSecret": "s3cret"])
                func signIn() async throws -> Reply {
                    try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try signer.token(googleClaims(api)))])
                }
                for _ in 0..<40 {
                    let reply = try await signIn()
                    #expect(reply.errorCode == "INVALID_IDP_RESPONSE", "\(reply.text)")
                }
                #expect(jwks.fetches == 1)

                api.clock.advance(by: .seconds(4))
                #expect(try await signIn().errorCode == "INVALID_IDP_RESPONSE")
                #expect(jwks.fetches == 1)
                api.clock.advance(by: .seconds(1))
                #expect(try await signIn().errorCode == "INVALID_IDP_RESPONSE")
                #expect(jwks.fetches == 2)

                // A second failure in a row: 10 seconds.
                jwks.fail(false)
                api.clock.advance(by: .seconds(9))
                #expect(try await signIn().errorCode == "INVALID_IDP_RESPONSE")
                #expect(jwks.fetches == 2)
                api.clock.advance(by: .seconds(1))
                let recovered = try await signIn()
                #expect(recovered.status == .ok, "\(recovered.text)")
                #expect(jwks.fetches == 3)

                // The provider fails again: the cached set serves its key while it is valid, without a fetch.
                jwks.fail(true)
                api.clock.advance(by: .seconds(60))
                #expect(try await signIn().status == .ok)
                #expect(jwks.fetches == 3)
            }
        }
    }
}
