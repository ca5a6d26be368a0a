import Foundation
import Testing

@Suite("flint blocking dry-run, end to end", .serialized)
struct BlockingCommandLineTests {
    @Test("the dry run refuses bad input in Firebase's words, reports in JSON and is audited with the actor cli")
    func dryRun() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        func flint(_ arguments: String...) async throws -> (Int32, String) {
            try await runFlint(["blocking", "dry-run"] + arguments + ["--data", data])
        }

        let (tooLong, days) = try await flint("--uri", "https://f.example/x", "--days", "31")
        #expect(tooLong == 1 && days.contains("INVALID_ARGUMENT : days must be between 1 and 30"), "\(days)")
        let (badURI, uri) = try await flint("--uri", "f/x")
        #expect(badURI == 1 && uri.contains("INVALID_BLOCKING_FUNCTION : ((Expected an absolute URI with valid scheme and host.))"), "\(uri)")
        let (none, configured) = try await flint()
        #expect(none == 1 && configured.contains("no beforeSignIn function is configured"), "\(configured)")

        // No sign-in in the log yet: nothing to call, an empty report.
        let (ran, json) = try await flint("--uri", "http://127.0.0.1:9/f", "--trigger", "beforeCreate", "--json")
        #expect(ran == 0, "\(json)")
        let report = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(report?["trigger"] as? String == "beforeCreate" && report?["days"] as? Int == 7 && report?["replayed"] as? Int == 0, "\(json)")
        let (_, human) = try await flint("--uri", "http://127.0.0.1:9/f")
        #expect(human.contains("calls 0: allowed 0, changed 0, refused 0, failed 0"), "\(human)")

        let (audited, events) = try await runFlint(["audit", "list", "--data", data, "--kind", "BLOCKING_DRY_RUN"])
        #expect(audited == 0 && events.split(separator: "\n").count == 2 && events.contains("actor=cli"), "\(events)")
    }
}
