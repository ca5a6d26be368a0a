import FlintTesting
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `flint serve` child process on a loopback port (dev mode), for the SDK's integration tests and the seeds' runs.
public final class FlintProcess: @unchecked Sendable {
    // `process` is only touched by `start` and `stop`, which a test calls in sequence.
    public let port: Int
    public let directory: String
    private let process: Process

    /// The built binary: `FLINT_BINARY`, else `.build/debug/flint` beside this package.
    public static var binary: String {
        if let path = ProcessInfo.processInfo.environment["FLINT_BINARY"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/flint").path
    }

    /// The project config the tests need: anonymous sign-in on, sign-in methods visible to `createAuthUri`.
    public static let config = """
        {"signIn": {"email": {"enabled": true, "passwordRequired": false}, "anonymous": {"enabled": true}},
         "emailPrivacyConfig": {"enableImprovedEmailPrivacy": false}, "authorizedDomains": ["localhost"]}
        """

    private init(port: Int, directory: String, process: Process) {
        self.port = port
        self.directory = directory
        self.process = process
    }

    /// Starts the binary on a free port, with `extraArguments` after the usual ones, and waits until it answers `GET /`.
    public static func start(extraArguments: [String] = []) async throws -> FlintProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flint-auth-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let configPath = directory + "/config.json"
        try Data(config.utf8).write(to: URL(fileURLWithPath: configPath))
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            let log = directory + "/flint-\(port).log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments =
                [
                    "serve", "--port", String(port), "--data", directory + "/data", "--config", configPath, "--password-hash-cost", "10",
                    "--log-level", "info",
                ] + extraArguments
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            let server = FlintProcess(port: port, directory: directory, process: process)
            if await server.waitReady(log: log) { return server }
            await server.terminate()  // most likely the port was taken: try another, keeping the directory
        }
        let logs = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let log = logs.filter { $0.hasSuffix(".log") }.compactMap { try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }
        try? FileManager.default.removeItem(atPath: directory)
        throw FlintProcessError(message: "flint did not start (\(binary)): \(log.joined(separator: "\n"))")
    }

    /// Whether this process came to answer on its port. An answer alone is not enough: on a loaded machine another
    /// test's server can hold the randomly chosen port while this one is still starting (it then fails to bind and
    /// exits, and the test would talk to the other server until that one stops); it is this process when its own log
    /// says it listens on the port (a text line ends with it, a JSON one quotes it).
    private func waitReady(log: String) async -> Bool {
        for _ in 0..<300 {
            if !process.isRunning { return false }
            if case (200, _)? = try? await get("/"),
                ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").contains(where: {
                    $0.contains("listening on") && ($0.hasSuffix(":\(port)") || $0.contains(":\(port)\""))
                })
            {
                return true
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Sends SIGTERM, awaits the exit (off the cooperative pool: see `ChildProcess`) and removes the data directory.
    public func stop() async {
        await terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func terminate() async {
        if process.isRunning { process.terminate() }
        _ = await ChildProcess.exitStatus(of: process)
    }

    /// GETs a path and returns the status and body.
    public func get(_ path: String) async throws -> (Int, Data) {
        try await send("GET", path)
    }

    /// Sends a request, with a JSON body when one is given, and returns the status and body.
    public func send(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> (Int, Data) {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw FlintProcessError(message: "bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
                }
            }.resume()
        }
    }

    /// The newest emailed link for `email`, from the dev helper `GET /emulator/v1/projects/demo-flint/oobCodes`.
    public func oobLink(for email: String) async throws -> String {
        struct Codes: Decodable {
            struct Code: Decodable {
                var email: String
                var oobLink: String
            }
            var oobCodes: [Code]
        }
        let (_, data) = try await get("/emulator/v1/projects/demo-flint/oobCodes")
        let codes = try JSONDecoder().decode(Codes.self, from: data)
        guard let link = codes.oobCodes.last(where: { $0.email == email })?.oobLink else {
            throw FlintProcessError(message: "no link emailed to \(email)")
        }
        return link
    }
}

public struct FlintProcessError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// Runs `body` with a fresh server (given `extraArguments`), stopping it afterwards.
public func withFlint(
    isolation: isolated (any Actor)? = #isolation, extraArguments: [String] = [], _ body: (FlintProcess) async throws -> Void
) async throws {
    let server = try await FlintProcess.start(extraArguments: extraArguments)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// A unique email address.
public func uniqueEmail() -> String { "user-\(UUID().uuidString.prefix(8).lowercased())@example.com" }
