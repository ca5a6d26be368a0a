import AsyncHTTPClient
import FlintTesting
import Foundation
import Testing

/// `flint backup` and `flint restore` through the real binary, with a node serving sign-ups while the backup runs.
@Suite("backups, end to end", .serialized)
struct BackupEndToEndTests {
    @Test(
        "a backup taken under sign-up load restores every user acknowledged before it began, keys that verify old tokens, and only with the master key"
    )
    func backupUnderLoad() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        let key = try newMasterKeyFile()
        let (encrypted, plain) = (data + ".backup", data + ".plain-backup")
        let (restored, keyless, fromPlain) = (data + "-restored", data + "-keyless", data + "-plain")
        defer { for path in [data, key, encrypted, plain, restored, keyless, fromPlain] { try? FileManager.default.removeItem(atPath: path) } }
        let node = try await FlintProcess(dataDirectory: data, extraArguments: ["--master-key-file", key, "--new-accounts-per-ip", "0"])
        let signUp = node.base + "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k"
        let (_, first) = try await postJSON(client, signUp, ["email": "first@example.com", "password": "correct horse"])
        let oldIDToken = try #require(first["idToken"] as? String)
        let refreshToken = try #require(first["refreshToken"] as? String)
        let firstID = try #require(first["localId"] as? String)
        let (enabled, _) = try await node.send(
            "PATCH", "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config?updateMask=signIn.anonymous.enabled",
            body: Data(#"{"signIn":{"anonymous":{"enabled":true}}}"#.utf8), headers: ["Authorization": "Bearer owner"])
        #expect(enabled == 200)

        // Anonymous sign-ups (no password hashing, so they come fast) keep coming from four clients; each acknowledged
        // account is recorded as it is answered.
        let acknowledged = EventLog<String>()
        let load = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        while !Task.isCancelled {
                            let (status, answer) = try await postJSON(client, signUp, [:])
                            if status == 200, let id = answer["localId"] as? String { acknowledged.record(id) }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        _ = await acknowledged.wait(for: 20)
        // A backup is taken until one ran while sign-ups were answered (the first, nearly always).
        var before: [String] = []
        var during = 0
        var said = ""
        for attempt in 0..<5 where during == 0 {
            try? FileManager.default.removeItem(atPath: encrypted)
            if attempt > 0 { _ = await acknowledged.wait(for: acknowledged.events.count + 1) }
            before = acknowledged.events + [firstID]
            let (status, output) = try await runFlint(["backup", encrypted, "--encrypt", "--data", data, "--master-key-file", key])
            #expect(status == 0 && output.contains("encrypted with master key"), "\(output)")
            said = output
            during = acknowledged.events.count - (before.count - 1)
        }
        let (plainStatus, plainSaid) = try await runFlint(["backup", plain, "--data", data])
        load.cancel()
        _ = await load.result
        await node.stop()
        #expect(during > 0, "sign-ups were answered while the backup ran: \(said)")
        #expect(plainStatus == 0, "\(plainSaid)")
        let (again, refusedAgain) = try await runFlint(["backup", encrypted, "--data", data])
        #expect(again != 0 && refusedAgain.contains("exists"), "a backup never replaces a file")

        // Without the master key neither backup restores, and nothing is left behind.
        let (noKey, refusal) = try await runFlint(["restore", encrypted, "--data", keyless])
        #expect(noKey != 0 && refusal.contains("is encrypted with master key"), "\(refusal)")
        let (plainNoKey, plainRefusal) = try await runFlint(["restore", plain, "--data", fromPlain])
        #expect(plainNoKey != 0 && plainRefusal.contains("no master key"), "\(plainRefusal)")
        #expect(!FileManager.default.fileExists(atPath: keyless) && !FileManager.default.fileExists(atPath: fromPlain))
        let wrongKey = try newMasterKeyFile()
        defer { try? FileManager.default.removeItem(atPath: wrongKey) }
        let (wrong, wrongSaid) = try await runFlint(["restore", encrypted, "--data", keyless, "--master-key-file", wrongKey])
        #expect(wrong != 0 && wrongSaid.contains("wrong master key"), "\(wrongSaid)")

        let (restoredStatus, report) = try await runFlint(["restore", encrypted, "--data", restored, "--master-key-file", key])
        #expect(restoredStatus == 0, "\(report)")
        #expect(report.contains("opens with master key") && report.contains("sound SQLite database"), "\(report)")
        let (overStatus, over) = try await runFlint(["restore", plain, "--data", restored, "--master-key-file", key])
        #expect(overStatus != 0 && over.contains("not empty"), "\(over)")

        let second = try await FlintProcess(dataDirectory: restored, extraArguments: ["--master-key-file", key])
        defer { second.terminate() }
        let lookup = try JSONSerialization.data(withJSONObject: ["localId": before])
        let (found, body) = try await second.send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-flint/accounts:lookup", body: lookup,
            headers: ["Authorization": "Bearer owner"])
        let users = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["users"] as? [[String: Any]] ?? []
        #expect(found == 200)
        #expect(Set(users.compactMap { $0["localId"] as? String }) == Set(before), "every user acknowledged before the backup began")
        let (verified, _) = try await postJSON(
            client, second.base + "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k", ["idToken": oldIDToken])
        #expect(verified == 200, "an ID token signed before the backup verifies with the restored keys")
        let (refreshed, _) = try await postJSON(
            client, second.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": refreshToken])
        #expect(refreshed == 200)
        let (doctor, checked) = try await runFlint(["doctor", "--data", restored, "--master-key-file", key])
        #expect(doctor == 0 && checked.contains("user(s)"), "\(checked)")
    }

    @Test(
        "on PostgreSQL: the pg_dump / pg_restore procedure of docs/operations.md restores a store that flint doctor passes with the master key and fails without",
        .enabled(if: postgresURL != nil))
    func postgresDumpAndRestore() async throws {
        let client = HTTPClient.shared
        let base = try #require(postgresURL)
        let source = try await TwoNodeTests().freshDatabase(on: base)
        let target = try await TwoNodeTests().freshDatabase(on: base, schema: .empty)
        let key = try newMasterKeyFile()
        let (dump, firstData, secondData) = (temporaryDataDirectory() + ".dump", temporaryDataDirectory(), temporaryDataDirectory())
        let keylessData = temporaryDataDirectory()
        defer { for path in [key, dump, firstData, secondData, keylessData] { try? FileManager.default.removeItem(atPath: path) } }
        let node = try await FlintProcess(
            dataDirectory: firstData, extraArguments: ["--database", source, "--dev", "--master-key-file", key])
        let (_, signed) = try await postJSON(
            client, node.base + "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", ["email": "pg@example.com", "password": "correct horse"])
        let idToken = try #require(signed["idToken"] as? String)
        await node.stop()

        let dumped = try await ChildProcess.run("/usr/bin/env", ["pg_dump", "--format=custom", "--file=\(dump)", source])
        #expect(dumped.status == 0, "\(dumped.output)")
        let restored = try await ChildProcess.run("/usr/bin/env", ["pg_restore", "--no-owner", "-d", target, dump])
        #expect(restored.status == 0, "\(restored.output)")

        // A data directory of its own: the default one (`.flint` in the working directory) may hold a dev master key.
        let (keyless, refusal) = try await runFlint(["doctor", "--database", target, "--data", keylessData])
        #expect(keyless != 0 && refusal.contains("no master key"), "\(refusal)")
        let (doctor, report) = try await runFlint(["doctor", "--database", target, "--master-key-file", key])
        #expect(doctor == 0 && report.contains("1 user(s)") && report.contains("opens with master key"), "\(report)")
        let second = try await FlintProcess(
            dataDirectory: secondData, extraArguments: ["--database", target, "--dev", "--master-key-file", key])
        defer { second.terminate() }
        let (verified, _) = try await postJSON(client, second.base + "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k", ["idToken": idToken])
        #expect(verified == 200, "a token signed before the dump verifies on the restored database")
    }
}
