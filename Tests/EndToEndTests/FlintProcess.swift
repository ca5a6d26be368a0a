import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1

/// A `flint serve` child process on a loopback port, for tests that need the real binary.
final class FlintProcess {
    let port: Int
    let dataDirectory: String
    private let process: Process
    private let logFile: String

    /// The built binary: `FLINT_BINARY`, else `.build/debug/flint` beside this package.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["FLINT_BINARY"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/flint").path
    }

    /// Starts the binary on a free port and waits until it answers `GET /`.
    init(dataDirectory: String, extraArguments: [String] = [], client: HTTPClient) async throws {
        self.dataDirectory = dataDirectory
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            let log = dataDirectory + "-\(port).log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Self.binary)
            p.arguments = ["serve", "--port", String(port), "--data", dataDirectory, "--log-level", "debug"] + extraArguments
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            p.standardOutput = handle
            p.standardError = handle
            try p.run()
            if await Self.waitReady(port: port, client: client, process: p, log: log) {
                self.port = port
                self.process = p
                self.logFile = log
                return
            }
            p.terminate()
            _ = await ChildProcess.exitStatus(of: p)
            lastError = FlintProcessError(
                message: "flint did not start on port \(port): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        throw lastError ?? FlintProcessError(message: "flint did not start")
    }

    private static func waitReady(port: Int, client: HTTPClient, process: Process, log: String) async -> Bool {
        for _ in 0..<300 {
            if !process.isRunning { return false }
            // Any answer means something listens (production mode answers `/` with 404); it is this process only when
            // its own log says it listens on the port (a text line ends with it, a JSON one quotes it): on a loaded machine another test's node can hold a randomly
            // chosen port while this one is still failing to bind it.
            if (try? await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/"), timeout: .seconds(1))) != nil,
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

    /// Sends SIGTERM and awaits the graceful exit (off the cooperative pool: see `ChildProcess`); returns the exit
    /// status.
    @discardableResult
    func stop() async -> Int32 {
        process.terminate()
        return await ChildProcess.exitStatus(of: process)
    }

    /// Sends SIGTERM without waiting for the exit, for a `defer` (which cannot await): the process shuts down on its
    /// own and Foundation reaps it. A test that goes on with the data directory awaits ``stop()`` instead.
    func terminate() {
        if process.isRunning { process.terminate() }
    }

    /// Kills the process with SIGKILL (no shutdown at all, as a crash or the OOM killer) and awaits its end.
    func kill() async {
        Foundation.kill(process.processIdentifier, SIGKILL)
        _ = await ChildProcess.exitStatus(of: process)
    }

    /// What the server logged.
    var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    var base: String { "http://127.0.0.1:\(port)" }

    /// The server's process ID (its descriptors are under `/proc/PID/fd`).
    var pid: Int32 { process.processIdentifier }
}

/// A fresh, unique path for a data directory (not created).
func temporaryDataDirectory() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("flint-e2e-\(UUID().uuidString)").path
}

struct FlintProcessError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// POSTs JSON and returns the status and decoded object.
func postJSON(_ client: HTTPClient, _ url: String, _ body: [String: String], headers: [(String, String)] = []) async throws -> (Int, [String: Any]) {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    for (k, v) in headers { request.headers.add(name: k, value: v) }
    request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
    return try await send(client, request)
}

/// GETs a URL and returns the status and decoded object.
func getJSON(_ client: HTTPClient, _ url: String) async throws -> (Int, [String: Any]) {
    try await send(client, HTTPClientRequest(url: url))
}

private func send(_ client: HTTPClient, _ request: HTTPClientRequest) async throws -> (Int, [String: Any]) {
    let response = try await client.execute(request, timeout: .seconds(30))
    let buffer = try await response.body.collect(upTo: 1 << 22)
    let object = (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    return (Int(response.status.code), object)
}
