import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// `--config FILE` is applied when its content changed since it was last applied, so what operators change through
/// the admin API survives restarts with the same file.
@Suite("flint serve --config: applied when the file changed", .serialized)
struct ConfigFileEndToEndTests {
    private func domains(_ client: HTTPClient, _ server: FlintProcess) async throws -> [String]? {
        let (_, projects) = try await getJSON(client, server.base + "/identitytoolkit.googleapis.com/v1/projects?key=k")
        return projects["authorizedDomains"] as? [String]
    }

    private func patchDomains(_ client: HTTPClient, _ server: FlintProcess, _ domains: [String]) async throws -> Int {
        var request = HTTPClientRequest(
            url: server.base + "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config?updateMask=authorizedDomains")
        request.method = .PATCH
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "authorization", value: "Bearer owner")
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: ["authorizedDomains": domains])))
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    @Test("an admin change survives a restart with the same file; an edited file is applied; config diff shows both")
    func appliedWhenChanged() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let file = data + ".yaml"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "authorizedDomains: [localhost, example.com]\n".write(toFile: file, atomically: true, encoding: .utf8)

        let first = try await FlintProcess(dataDirectory: data, extraArguments: ["--config", file])
        #expect(try await domains(client, first) == ["localhost", "example.com"])
        #expect(try await patchDomains(client, first, ["localhost", "admin.example.com"]) == 200)
        await first.stop()

        let (diffStatus, diff) = try await runFlint(["config", "diff", "--data", data, file])
        #expect(diffStatus == 0, "\(diff)")
        #expect(diff.contains("authorizedDomains"), "\(diff)")
        #expect(diff.contains("admin.example.com"), "\(diff)")
        #expect(diff.contains("last one applied"), "\(diff)")

        let second = try await FlintProcess(dataDirectory: data, extraArguments: ["--config", file])
        #expect(try await domains(client, second) == ["localhost", "admin.example.com"], "the same file is not applied again")
        await second.stop()

        try "authorizedDomains: [localhost, edited.example.com]\n".write(toFile: file, atomically: true, encoding: .utf8)
        let (_, editedDiff) = try await runFlint(["config", "diff", "--data", data, file])
        #expect(editedDiff.contains("edited.example.com") && editedDiff.contains("next start"), "\(editedDiff)")
        let third = try await FlintProcess(dataDirectory: data, extraArguments: ["--config", file])
        #expect(try await domains(client, third) == ["localhost", "edited.example.com"], "an edited file is applied")
        await third.stop()

        let (_, sameDiff) = try await runFlint(["config", "diff", "--data", data, file])
        #expect(sameDiff.contains("no differences"), "\(sameDiff)")
    }
}
