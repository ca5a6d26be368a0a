import FlintTesting
import Foundation
import Testing

/// `flint users export` writes keyset pages as it reads them: the process's peak memory does not grow with the number
/// of users it exports.
@Suite("flint users export in bounded memory", .serialized)
struct ExportMemoryTests {
    @Test("exporting 60,000 users peaks within 12 MiB of exporting 5,000, in JSON and in CSV")
    func boundedMemory() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let database = data + "/flint.sqlite"
        // The first export creates the data directory and its schema (and exports nobody).
        #expect(try await runFlintApart(["users", "export", data + "/empty.json", "--data", data]).status == 0)
        var peaks: [String: [Int]] = [:]
        for (from, through) in [(1, 5_000), (5_001, 60_000)] {
            try await Self.seed(database, from: from, through: through)
            for file in ["users.json", "users.csv"] {
                let (status, peak) = try await Self.peakResidentKiB(FlintProcess.binary, ["users", "export", data + "/" + file, "--data", data])
                #expect(status == 0)
                peaks[file, default: []].append(peak)
            }
            let written = try String(contentsOfFile: data + "/users.csv", encoding: .utf8).split(separator: "\n").count
            #expect(written == through, "every seeded user is exported")
        }
        for (file, kib) in peaks {
            print("flint users export \(file): peak RSS \(kib[0]) KiB for 5,000 users, \(kib[1]) KiB for 60,000")
            #expect(kib[1] - kib[0] < 12 * 1024, "\(file): \(kib)")
        }
    }

    /// Adds phone users `from...through` (with an email and a display name each) with SQLite's shell: quick, and
    /// the same rows an import writes for such users.
    static func seed(_ database: String, from: Int, through: Int) async throws {
        let sql = """
            WITH RECURSIVE n(i) AS (SELECT \(from) UNION ALL SELECT i + 1 FROM n WHERE i < \(through))
            INSERT INTO users (local_id, phone_number, email, display_name, created_at, last_login_at, valid_since)
            SELECT printf('user%07d', i), '+1555' || printf('%07d', i), printf('user%07d@example.com', i), printf('User Number %d', i),
                1700000000000 + i, 1700000000000 + i, 1700000000000 FROM n;
            """
        let outcome = try await ChildProcess.run("/usr/bin/env", ["sqlite3", database, sql])
        #expect(outcome.status == 0, "\(outcome.output)")
    }

    /// Runs `executable` to completion with its output discarded; returns its exit status and its peak resident set
    /// (KiB). It is started by a small Python process and measured there (`RUSAGE_CHILDREN`): Linux carries a
    /// process's high-water mark across `exec`, so a child spawned straight from this test process (gigabytes when the
    /// whole suite runs in it) would report this process's peak instead of its own.
    static func peakResidentKiB(_ executable: String, _ arguments: [String]) async throws -> (Int32, Int) {
        let script = """
            import resource, subprocess, sys
            code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let outcome = try await ChildProcess.run("/usr/bin/env", ["python3", "-c", script, executable] + arguments, mergingError: false)
        let fields = outcome.output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard outcome.status == 0, fields.count == 2 else { throw MeasureFailed(output: outcome.output) }
        return (Int32(fields[0]), fields[1])
    }

    struct MeasureFailed: Error {
        let output: String
    }
}
