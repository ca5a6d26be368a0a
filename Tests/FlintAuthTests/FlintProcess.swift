import Foundation
import Testing

@testable import FlintAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `flint serve` child process on a loopback port (dev mode), adapted from EndToEndTests' helper to URLSession.
final class FlintProcess: @unchecked Sendable {
    // `process` is only touched by `start` and `stop`, which a test calls in sequence.
    let port: Int
    let directory: String
    private let process: Process

    /// The built binary: `FLINT_BINARY`, else `.build/debug/flint` beside this package.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["FLINT_BINARY"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/flint").path
    }

    /// The project config the tests need: anonymous sign-in on, sign-in methods visible to `createAuthUri`.
    static let config = """
        {"signIn": {"email": {"enabled": true, "passwordRequired": false}, "anonymous": {"enabled": true}},
         "emailPrivacyConfig": {"enableImprovedEmailPrivacy": false}, "authorizedDomains": ["localhost"]}
        """

    private init(port: Int, directory: String, process: Process) {
        self.port = port
        self.directory = directory
        self.process = process
    }

    /// Starts the binary on a free port and waits until it answers `GET /`.
    static func start() async throws -> FlintProcess {
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
            process.arguments = [
                "serve", "--port", String(port), "--data", directory + "/data", "--config", configPath, "--password-hash-cost", "10",
                "--log-level", "warning",
            ]
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            let server = FlintProcess(port: port, directory: directory, process: process)
            if await server.waitReady() { return server }
            server.terminate()  // most likely the port was taken: try another, keeping the directory
        }
        let logs = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let log = logs.filter { $0.hasSuffix(".log") }.compactMap { try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }
        try? FileManager.default.removeItem(atPath: directory)
        throw FlintProcessError(message: "flint did not start (\(binary)): \(log.joined(separator: "\n"))")
    }

    private func waitReady() async -> Bool {
        for _ in 0..<300 {
            if !process.isRunning { return false }
            if case (200, _)? = try? await get("/") { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Sends SIGTERM, waits for the exit and removes the data directory.
    func stop() {
        terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func terminate() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// GETs a path and returns the status and body.
    func get(_ path: String) async throws -> (Int, Data) {
        try await send("GET", path)
    }

    /// Sends a body-less request to a path and returns the status and body.
    func send(_ method: String, _ path: String) async throws -> (Int, Data) {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw FlintProcessError(message: "bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
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
    func oobLink(for email: String) async throws -> String {
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

    /// A new `Auth` addressed to this server through `useEmulator`, for a fresh app with its own store directory.
    func makeAuth(appName: String = "app-\(UUID().uuidString)", storeDirectory: URL? = nil) -> Auth {
        FlintApp.configure(name: appName, options: FlintOptions(apiKey: "test-key", projectID: "demo-flint"))
        let directory = storeDirectory ?? URL(fileURLWithPath: directory).appendingPathComponent("store-\(appName)")
        guard let app = FlintApp.app(name: appName) else { preconditionFailure("just configured") }
        let auth = Auth(app: app, storeDirectory: directory)
        auth.useEmulator(withHost: "127.0.0.1", port: port)
        return auth
    }
}

struct FlintProcessError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Runs `body` with a fresh server, stopping it afterwards.
func withFlint(_ body: (FlintProcess) async throws -> Void) async throws {
    let server = try await FlintProcess.start()
    defer { server.stop() }
    try await body(server)
}

/// A unique email address.
func uniqueEmail() -> String { "user-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

/// What a listener saw: the uid of each call (`nil` when signed out), in order.
final class ListenerLog: Sendable {
    private let calls = Locked<[String?]>([])

    func record(_ user: User?) { calls.withLock { $0.append(user?.uid) } }

    /// Waits until `count` calls have arrived and returns them.
    func waitFor(_ count: Int) async throws -> [String?] {
        for _ in 0..<200 {
            let seen = calls.current
            if seen.count >= count { return seen }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw FlintProcessError(message: "listener saw \(calls.current) instead of \(count) calls")
    }
}

/// The `FIRAuthErrorDomain` code of an error, or `nil`.
func authCode(_ error: any Error) -> Int? {
    let error = error as NSError
    return error.domain == AuthErrors.domain ? error.code : nil
}
