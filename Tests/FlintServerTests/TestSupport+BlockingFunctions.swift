import FlintCore
import FlintServerTestSupport

@testable import FlintServer

extension API {
    /// Sets the project's blocking functions: trigger name → function URL.
    func setBlockingFunctions(_ triggers: [String: String], forward: [String: Bool] = [:]) async throws {
        var map: [String: JSONValue] = [:]
        for (name, uri) in triggers { map[name] = ["functionUri": .string(uri)] }
        let section: JSONValue = ["triggers": .object(map), "forwardInboundCredentials": .object(forward.mapValues(JSONValue.bool))]
        try await patchConfig(
            String(decoding: JSONValue.object(["blockingFunctions": section]).serialized(), as: UTF8.self), mask: "blockingFunctions")
    }
}

/// The claims of a compact JWT (unverified).
func unverifiedClaims(_ jwt: String) -> JSONValue {
    let parts = jwt.split(separator: ".")
    guard parts.count == 3, let bytes = Base64URL.decode(parts[1]) else { return .null }
    return (try? JSONValue(parsing: bytes)) ?? .null
}
