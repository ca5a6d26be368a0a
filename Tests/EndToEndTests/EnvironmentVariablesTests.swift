import FlintTesting
import Foundation
import Testing

@Suite("FLINT_* environment variables")
struct EnvironmentVariablesTests {
    @Test("a variable that does not read as its type stops the command with its name, never falls back to the default")
    func malformedIsRefused() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (port, portOutput) = try await runFlint(["serve", "--data", data], environment: ["FLINT_PORT": "9o99"])
        #expect(port != 0 && portOutput.contains("FLINT_PORT is not an integer"), "\(portOutput)")
        let (dev, devOutput) = try await runFlint(["serve", "--data", data, "--port", "0"], environment: ["FLINT_DEV": "maybe"])
        #expect(dev != 0 && devOutput.contains("FLINT_DEV is not 1/0, true/false or yes/no"), "\(devOutput)")
        let (rotate, rotateOutput) = try await runFlint(["keys", "rotate", "--data", data], environment: ["FLINT_RELOAD_INTERVAL": "30s"])
        #expect(rotate != 0 && rotateOutput.contains("FLINT_RELOAD_INTERVAL is not an integer"), "\(rotateOutput)")
    }

    @Test("a variable sets its option, a flag wins over it, and an empty one counts as unset")
    func variablesAndFlags() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let started = Date()
        let (status, output) = try await runFlint(
            ["keys", "rotate"], environment: ["FLINT_DATA": data, "FLINT_RELOAD_INTERVAL": "600", "FLINT_MASTER_KEY_FILE": ""])
        let ended = Date()
        #expect(status == 0, "\(output)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let printed = try #require(
            output.split(separator: " ").compactMap {
                formatter.date(from: String($0.trimmingCharacters(in: .punctuationCharacters.subtracting(["."]))))
            }.first, "\(output)")
        // The key takes over an hour, a reload interval and five minutes after the command ran, whenever that was (the
        // window is the command's own run, however long a loaded machine makes it).
        let lead: TimeInterval = 3600 + 600 + 300
        #expect(
            printed >= started.addingTimeInterval(lead - 1) && printed <= ended.addingTimeInterval(lead + 1),
            "FLINT_RELOAD_INTERVAL=600 lengthens the lead: \(output)")
        let (flagStatus, flagOutput) = try await runFlint(
            ["keys", "rotate", "--reload-interval", "0"], environment: ["FLINT_DATA": data, "FLINT_RELOAD_INTERVAL": "600"])
        #expect(flagStatus != 0 && flagOutput.contains("--reload-interval must be between 1 and 3600"), "the flag is read: \(flagOutput)")
    }
}
