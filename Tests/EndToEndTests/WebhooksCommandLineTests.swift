import FlintTesting
import Foundation
import Testing

@Suite("flint webhooks: subscriptions from the command line, end to end", .serialized)
struct WebhooksCommandLineTests {
    @Test("add prints the secret once; list, disable, enable, deliveries, replay and remove act on the store, audited as cli")
    func manage() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        func flint(_ arguments: String...) async throws -> (Int32, String) {
            try await runFlint(["webhooks"] + arguments + ["--data", data])
        }
        let (refused, why) = try await flint("add", "http://hooks.example.com/in", "--event", "user.created")
        #expect(refused != 0 && why.contains("https"), "\(why)")
        let (unknown, unknownWhy) = try await flint("add", "https://hooks.example.com/in", "--event", "user.exploded")
        #expect(unknown != 0 && unknownWhy.contains("unknown event type user.exploded"), "\(unknownWhy)")

        let (status, output) = try await flint(
            "add", "https://hooks.example.com/in", "--event", "user.created", "--event", "mfa.enrolled", "--description", "CRM sync")
        #expect(status == 0, "\(output)")
        let secret = try #require(output.split(separator: "\n").last.map(String.init))
        #expect(secret.hasPrefix("whsec_") && (Data(base64Encoded: String(secret.dropFirst(6)))?.count ?? 0) >= 24)
        let (_, listed) = try await flint("list", "--json")
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])
        let id = try #require(entry["id"] as? String)
        #expect(entry["url"] as? String == "https://hooks.example.com/in" && entry["events"] as? [String] == ["user.created", "mfa.enrolled"])
        #expect(entry["enabled"] as? Bool == true && entry["description"] as? String == "CRM sync")
        #expect(!listed.contains(secret), "listings never show secrets")

        #expect(try await flint("disable", id).0 == 0)
        #expect(try await flint("list").1.contains("\(id) disabled"))
        #expect(try await flint("enable", id).0 == 0)
        let (deliveries, none) = try await flint("deliveries", id)
        #expect(deliveries == 0 && none.isEmpty, "\(none)")
        #expect(try await flint("deliveries", "wh_missing").0 != 0)
        #expect(try await flint("replay", "424242").0 != 0)
        #expect(try await flint("remove", id).0 == 0)
        #expect(try await flint("remove", id).0 != 0)
        #expect(try await flint("list").1.isEmpty)

        let (_, audit) = try await runFlint(["audit", "list", "--kind", "WEBHOOK_CHANGED", "--data", data])
        let actions = audit.split(separator: "\n").filter { $0.contains("actor=cli") }
        #expect(actions.count == 4, "\(audit)")
        #expect(!audit.contains(secret))
    }
}
