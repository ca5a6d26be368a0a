import AsyncHTTPClient
import FlintTesting
import Foundation
import Testing

/// Dev mode makes `Bearer owner` an admin, so `flint serve` assumes it only where nobody else can reach the node:
/// a loopback host with SQLite. Anywhere else the operator has to say which mode they mean.
@Suite("flint serve, dev mode only when asked for or on loopback with SQLite", .serialized)
struct DevModeCommandLineTests {
    @Test(
        "a non-loopback host or a PostgreSQL database without --dev or --no-dev refuses to start with a one-line reason",
        arguments: [
            ["--host", "0.0.0.0"],
            ["--host", "::"],
            ["--database", "postgres://flint:secret@127.0.0.1:1/flint?sslmode=disable"],
        ])
    func refusesWithoutAMode(arguments: [String]) async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (status, output) = try await runFlint(["serve", "--port", "0", "--data", data] + arguments)
        #expect(status != 0)
        let reason = output.split(separator: "\n").filter { $0.contains("refusing to start") }
        #expect(reason.count == 1, "\(output)")
        #expect(output.contains("--dev") && output.contains("--no-dev"), "\(output)")
        #expect(!output.contains("secret"), "the database password is not printed")
    }

    @Test("--host 0.0.0.0 with --dev starts in dev mode, and with --no-dev in production mode")
    func startsWithAnExplicitMode() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let dev = try await FlintProcess(dataDirectory: data, extraArguments: ["--host", "0.0.0.0", "--dev"])
        let (devStatus, _) = try await getJSON(client, dev.base + "/emulator/v1/projects/demo-flint/oobCodes")
        await dev.stop()
        #expect(devStatus == 200)
        // Production mode reads no key from the data directory unless told to: the key dev mode made there is named.
        let production = try await FlintProcess(
            dataDirectory: data,
            extraArguments: ["--host", "0.0.0.0", "--no-dev", "--master-key-file", data + "/master.key", "--admin-token", "admin-secret-123"])
        let (productionStatus, _) = try await getJSON(client, production.base + "/emulator/v1/projects/demo-flint/oobCodes")
        await production.stop()
        #expect(productionStatus == 404)
    }

    @Test("127.0.0.1 with SQLite is still dev mode without a flag, as for swift run flint serve")
    func loopbackIsDevByDefault() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try await FlintProcess(dataDirectory: data)
        defer { server.terminate() }
        let (status, _) = try await getJSON(client, server.base + "/emulator/v1/projects/demo-flint/oobCodes")
        #expect(status == 200)
    }
}
