package import FlintCore
import FlintTesting
import Foundation
package import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// A blocking function on loopback: records each call's JWT claims (and header) and answers as `answer` says.
package final class StandInFunction: Sendable {
    /// What the function answers a call: a status and a JSON body, or none until the test body ends (`hang`), long after the caller gave up.
    package enum Answer: Sendable {
        case json(HTTPResponse.Status, JSONValue)
        case text(String)
        case hang
    }

    private struct State {
        var port = 0
        var calls: [(header: JSONValue, claims: JSONValue, body: JSONValue)] = []
        var answer: @Sendable (JSONValue) -> Answer = { _ in .json(.ok, [:]) }
    }

    private let state = Mutex(State())
    /// Recorded when the test body ends: a `hang` answer is given then.
    private let done = EventLog<Void>()

    /// A function with no calls yet, answering `{}` (allowed, no change).
    package init() {}

    /// `http://127.0.0.1:<port>/<name>`: the function's URL for a trigger.
    package func uri(_ name: String) -> String { "http://127.0.0.1:\(state.withLock { $0.port })/\(name)" }

    /// Every call's JWT header and claims, and the request body, in order.
    package var calls: [(header: JSONValue, claims: JSONValue, body: JSONValue)] { state.withLock { $0.calls } }

    /// The claims of the calls so far.
    package var claims: [JSONValue] { calls.map(\.claims) }

    /// How the function answers from now on, given a call's claims.
    package func answer(_ decide: @escaping @Sendable (JSONValue) -> Answer) {
        state.withLock { $0.answer = decide }
    }

    /// Runs `body` with the function listening.
    package func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let router = Router()
        router.post("/:name") { request, _ -> Response in
            let bytes = Array(buffer: try await request.body.collect(upTo: 1 << 20))
            let body = try JSONValue(parsing: bytes)
            let jwt = body["data"]?["jwt"]?.stringValue ?? ""
            let parts = jwt.split(separator: ".").map(String.init)
            let header = parts.count == 3 ? (try? JSONValue(parsing: Base64URL.decode(parts[0]) ?? [])) ?? .null : .null
            let claims = parts.count == 3 ? (try? JSONValue(parsing: Base64URL.decode(parts[1]) ?? [])) ?? .null : .null
            let decide = self.state.withLock { state in
                state.calls.append((header, claims, body))
                return state.answer
            }
            switch decide(claims) {
            case .json(let status, let value):
                return Response(
                    status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: value.serialized())))
            case .text(let text):
                return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: text)))
            case .hang:
                // No answer until the test is done with the function (the caller gives up after 7 s).
                _ = await self.done.wait(for: 1, limit: .seconds(60))
                return Response(status: .ok)
            }
        }
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            self.state.withLock { $0.port = port }
            defer { self.done.record(()) }
            try await body()
        }
    }
}

extension API {
    /// Sets the project's blocking functions: trigger name → function URL.
    package func setBlockingFunctions(_ triggers: [String: String], forward: [String: Bool] = [:]) async throws {
        var map: [String: JSONValue] = [:]
        for (name, uri) in triggers { map[name] = ["functionUri": .string(uri)] }
        let section: JSONValue = ["triggers": .object(map), "forwardInboundCredentials": .object(forward.mapValues(JSONValue.bool))]
        try await patchConfig(
            String(decoding: JSONValue.object(["blockingFunctions": section]).serialized(), as: UTF8.self), mask: "blockingFunctions")
    }
}

/// The claims of a compact JWT (unverified).
package func unverifiedClaims(_ jwt: String) -> JSONValue {
    let parts = jwt.split(separator: ".")
    guard parts.count == 3, let bytes = Base64URL.decode(parts[1]) else { return .null }
    return (try? JSONValue(parsing: bytes)) ?? .null
}
