import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1

/// A fresh, unique path for a data directory (not created).
func temporaryDataDirectory() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("flint-e2e-\(UUID().uuidString)").path
}

/// POSTs JSON and returns the status and decoded object.
func postJSON(_ client: HTTPClient, _ url: String, _ body: [String: String], headers: [(String, String)] = []) async throws -> (Int, [String: Any]) {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    for (k, v) in headers { request.headers.add(name: k, value: v) }
    request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
    return try await send(client, request)
}

/// GETs a URL and returns the status and decoded object.
func getJSON(_ client: HTTPClient, _ url: String) async throws -> (Int, [String: Any]) {
    try await send(client, HTTPClientRequest(url: url))
}

private func send(_ client: HTTPClient, _ request: HTTPClientRequest) async throws -> (Int, [String: Any]) {
    let response = try await client.execute(request, timeout: .seconds(30))
    let buffer = try await response.body.collect(upTo: 1 << 22)
    let object = (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    return (Int(response.status.code), object)
}

/// A production-mode `flint serve` with phone sign-in on (no app verification) that texts through a stand-in of
/// Twilio's API on `providerPort` (account `AC123`, auth token `twilioToken`), with `environment` added to its own;
/// `cleanUp` removes its files once it has stopped.
func phoneServer(providerPort: Int, twilioToken: String = "token", environment: [String: String] = [:]) async throws -> (
    server: FlintProcess, cleanUp: @Sendable () -> Void
) {
    let data = temporaryDataDirectory()
    let file = data + ".yaml"
    let cleanUp: @Sendable () -> Void = {
        try? FileManager.default.removeItem(atPath: data)
        try? FileManager.default.removeItem(atPath: file)
    }
    do {
        try "signIn: {phoneNumber: {enabled: true, appVerification: OFF}}".write(toFile: file, atomically: true, encoding: .utf8)
        let server = try await FlintProcess(
            dataDirectory: data,
            extraArguments: [
                "--no-dev", "--master-key-file", try newMasterKeyFile(), "--admin-token", "admin-secret-123", "--config", file,
                "--sms", "twilio+http://AC123:\(twilioToken)@127.0.0.1:\(providerPort)?from=%2B15551234567",
            ],
            environment: environment)
        return (server, cleanUp)
    } catch {
        cleanUp()
        throw error
    }
}
