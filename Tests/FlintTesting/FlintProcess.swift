public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `flint serve` child process on a loopback port, for the tests that need the real binary: the end-to-end tests
/// start it on a data directory of theirs with their own flags (``init(dataDirectory:extraArguments:)``), the SDK's
/// and the seeds' tests in dev mode with ``config`` in a directory of its own (``start(extraArguments:)``).
///
/// Its exit is awaited off the cooperative pool (``ChildProcess``): ``stop()`` and ``kill()`` await it; a `defer`,
/// which cannot await, calls ``terminate()``.
public final class FlintProcess: @unchecked Sendable {
    // `process` is started in `init` and then only signalled, asked whether it runs and awaited (`Process` locks those).
    public let port: Int
    /// The server's folder: ``start(extraArguments:)``'s own (the config, `data/` and the log; removed when the server
    /// stops), else the data directory the test gave (which the test removes).
    public let directory: String
    private let ownsDirectory: Bool
    private let process: Process
    private let logFile: String

    /// The built binary: `FLINT_BINARY`, else `.build/debug/flint` beside this package.
    public static var binary: String {
        if let path = ProcessInfo.processInfo.environment["FLINT_BINARY"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/flint").path
    }

    /// The project config of ``start(extraArguments:)``: anonymous sign-in on, sign-in methods visible to
    /// `createAuthUri`.
    public static let config = """
        {"signIn": {"email": {"enabled": true, "passwordRequired": false}, "anonymous": {"enabled": true}},
         "emailPrivacyConfig": {"enableImprovedEmailPrivacy": false}, "authorizedDomains": ["localhost"]}
        """

    /// Starts `flint serve --data dataDirectory` (debug logs, then `extraArguments`) on a free port, with `environment`
    /// added to this process's, and waits until it listens and, unless `untilReady` is false, until `GET /readyz`
    /// answers 200. Its log goes beside the data directory.
    public convenience init(
        dataDirectory: String, extraArguments: [String] = [], environment: [String: String] = [:], untilReady: Bool = true
    ) async throws {
        try await self.init(
            dataDirectory: dataDirectory, arguments: ["--log-level", "debug"] + extraArguments, directory: dataDirectory, ownsDirectory: false,
            environment: environment, untilReady: untilReady)
    }

    /// Starts a dev-mode server with ``config`` and a low password-hash cost in a fresh directory, with
    /// `extraArguments` after the usual ones; ``stop()`` removes the directory.
    public static func start(extraArguments: [String] = []) async throws -> FlintProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flint-auth-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let configPath = directory + "/config.json"
        do {
            try Data(config.utf8).write(to: URL(fileURLWithPath: configPath))
            let arguments = ["--config", configPath, "--password-hash-cost", "10", "--log-level", "info"] + extraArguments
            return try await FlintProcess(dataDirectory: directory + "/data", arguments: arguments, directory: directory, ownsDirectory: true)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    private init(
        dataDirectory: String, arguments: [String], directory: String, ownsDirectory: Bool, environment: [String: String] = [:],
        untilReady: Bool = true
    ) async throws {
        self.directory = directory
        self.ownsDirectory = ownsDirectory
        var failures: [String] = []
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            let log = dataDirectory + "-\(port).log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.arguments = ["serve", "--port", String(port), "--data", dataDirectory] + arguments
            if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given } }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            (process.standardOutput, process.standardError) = (handle, handle)
            try ChildProcess.start(process)
            if await Self.waitListening(process, port: port, log: log, untilReady: untilReady) {
                self.port = port
                self.process = process
                logFile = log
                return
            }
            // Most likely another process holds the port: try another.
            if process.isRunning { process.terminate() }
            _ = await ChildProcess.exitStatus(of: process)
            failures.append("port \(port): " + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
        }
        throw FlintProcessError(message: "flint did not start (\(Self.binary)):\n\(failures.joined(separator: "\n"))")
    }

    /// Whether the process came to listen on `port` and (`untilReady`) is ready: its own log says it listens (a text
    /// line ends with the port, a JSON one quotes it), then `GET /readyz` answers 200 (the node listens before its
    /// store is open, answering 503 until then). An answer on the port alone would not do: on a loaded machine another test's server
    /// can hold the randomly chosen port while this one still fails to bind it. The log is another process's file, so
    /// it is read every 100 ms, for at most 30 s or until the process exits.
    private static func waitListening(_ process: Process, port: Int, log: String, untilReady: Bool) async -> Bool {
        var listening = false
        for _ in 0..<300 {
            if !process.isRunning { return false }
            if !listening {
                let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
                listening = lines.contains { $0.contains("listening on") && ($0.hasSuffix(":\(port)") || $0.contains(":\(port)\"")) }
            }
            if listening {
                if !untilReady { return true }
                if await status(of: "http://127.0.0.1:\(port)/readyz") == 200 { return true }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// The status `GET url` answers, or `nil` when it does not.
    public static func status(of url: String) async -> Int? {
        guard let url = URL(string: url) else { return nil }
        // A session of its own, invalidated after the probe: a probe must not leave a kept-alive connection in the
        // shared session's pool, which would count against the server's --max-connections-per-ip for the rest of a test.
        var request = URLRequest(url: url, timeoutInterval: 5)
        request.setValue("close", forHTTPHeaderField: "Connection")
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        return await withCheckedContinuation { continuation in
            session.dataTask(with: request) { _, response, _ in
                continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode)
            }.resume()
        }
    }

    /// Sends SIGTERM and waits for the exit; returns the exit status. A ``start(extraArguments:)``ed server's
    /// directory is removed.
    @discardableResult
    public func stop() async -> Int32 {
        if process.isRunning { process.terminate() }
        let status = await ChildProcess.exitStatus(of: process)
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
        return status
    }

    /// Sends SIGTERM and returns at once, for a `defer`, which cannot await: the process shuts down on its own and
    /// `Process` reaps it. A test that needs the process gone (its port, its files, its exit status) awaits ``stop()``.
    public func terminate() {
        if process.isRunning { process.terminate() }
        if ownsDirectory {
            Task { [self] in
                _ = await ChildProcess.exitStatus(of: process)
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
    }

    /// Kills the process with SIGKILL (no shutdown at all, as a crash or the OOM killer) and waits for it to be gone.
    public func kill() async {
        Foundation.kill(process.processIdentifier, SIGKILL)
        _ = await ChildProcess.exitStatus(of: process)
    }

    /// What the server logged.
    public var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// `http://127.0.0.1:<port>`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// The server's process ID (its descriptors are under `/proc/PID/fd`).
    public var pid: Int32 { process.processIdentifier }

    /// GETs a path and returns the status and body.
    public func get(_ path: String) async throws -> (Int, Data) {
        try await send("GET", path)
    }

    /// Sends a request, with a JSON body when one is given, and returns the status and body.
    public func send(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> (Int, Data) {
        guard let url = URL(string: base + path) else { throw FlintProcessError(message: "bad path \(path)") }
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

/// Runs `body` with a fresh ``FlintProcess/start(extraArguments:)`` server (given `extraArguments`), and stops it
/// whether `body` returns or throws.
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

/// A test helper's failure, with what it saw.
public struct FlintProcessError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// A unique email address.
public func uniqueEmail() -> String { "user-\(UUID().uuidString.prefix(8).lowercased())@example.com" }
