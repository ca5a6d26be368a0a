import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@Suite("flint serve --log-format json", .serialized)
struct JSONLogEndToEndTests {
    @Test("every line the server writes is one JSON object with time, level, message, metadata and source")
    func everyLineParses() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let data = temporaryDataDirectory()
        let server = try await FlintProcess(dataDirectory: data, extraArguments: ["--log-format", "json"])
        do {
            var request = HTTPClientRequest(url: server.base + "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=k")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: #"{"phoneNumber":"+16505553434"}"#))
            let response = try await client.execute(request, timeout: .seconds(10))
            #expect(response.status == .ok)
        } catch {
            await server.stop()
            try await client.shutdown()
            throw error
        }
        #expect(await server.stop() == 0)
        try await client.shutdown()

        let lines = server.log.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count >= 3, "\(server.log)")
        var messages: [String] = []
        for line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            for key in ["time", "level", "message", "source"] { #expect(object[key] is String, "\(key) in \(line)") }
            #expect(object["metadata"] is [String: Any], "metadata in \(line)")
            messages.append(object["message"] as? String ?? "")
        }
        #expect(messages.contains("flint listening"))
        #expect(messages.contains("request"), "the request log line at debug level")
        #expect(!server.log.contains("+16505553434"), "no number in the log")
    }
}
