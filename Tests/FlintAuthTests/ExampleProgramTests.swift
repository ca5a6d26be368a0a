import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// `flint-auth-example` run as a child process beside the `flint` binary, its standard input fed line by line.
final class ExampleRun: @unchecked Sendable {
    // `process` and the pipes are used by one test at a time, in sequence.
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()

    static var binary: String {
        URL(fileURLWithPath: FlintProcess.binary).deletingLastPathComponent().appendingPathComponent("flint-auth-example").path
    }

    init(_ arguments: [String], home: String) throws {
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_DATA_HOME"] = home + "/share"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try ChildProcess.start(process)
    }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Closes standard input (end of file).
    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Closes standard input, then awaits the exit and both outputs off the cooperative pool (``ChildProcess``).
    func finish() async throws -> (status: Int32, stdout: String, stderr: String) {
        closeInput()
        async let out = ChildProcess.readToEnd(output.fileHandleForReading)
        async let err = ChildProcess.readToEnd(errors.fileHandleForReading)
        let (stdout, stderr) = await (out, err)
        let status = await ChildProcess.exitStatus(of: process)
        return (status, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}

// The time limit guards against a hang (a program that never exits), not a speed target.
@Suite("The flint-auth-example program", .timeLimit(.minutes(5)))
struct ExampleProgramTests {
    static func home() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("flint-example-\(UUID().uuidString)").path
    }

    @Test("--help prints the usage; an unknown argument is a usage error (status 2)")
    func usage() async throws {
        let help = try await ExampleRun(["--help"], home: Self.home()).finish()
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: flint-auth-example"))
        let bad = try await ExampleRun(["--bogus"], home: Self.home()).finish()
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("unexpected argument '--bogus'"))
        let noValue = try await ExampleRun(["phone", "--url"], home: Self.home()).finish()
        #expect(noValue.status == 2)
        #expect(noValue.stderr.contains("--url needs a value"))
    }

    @Test("the end of standard input stops it cleanly with status 1")
    func endOfInput() async throws {
        let run = try ExampleRun(["--url", "http://127.0.0.1:1"], home: Self.home())
        let result = try await run.finish()
        #expect(result.status == 1)
        #expect(result.stdout.contains("Sign in with 1) phone or 2) email link?"))
        #expect(result.stdout.contains("No more input; stopping."))
    }

    @Test("phone sign-in: number, the texted code, then the uid and the token's claims")
    func phone() async throws {
        try await withFlint { server in
            try await server.enablePhone()
            let number = "+14155550123"
            let run = try ExampleRun(
                ["phone", "--url", "http://127.0.0.1:\(server.port)", "--api-key", "test-key"], home: server.directory + "/home")
            run.send(number)
            // The code is texted by the flint child once the example child asked: polled, another process's state.
            var code: String?
            for _ in 0..<200 where code == nil {
                code = try? await server.verificationCode(for: number)
                if code == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            run.send(try #require(code))
            let result = try await run.finish()
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("Signed in. uid: "))
            #expect(result.stdout.contains("\"phone_number\" : \"\(number)\""))
        }
    }

    @Test("email-link sign-in: a pasted non-link is refused, the emailed link signs in")
    func emailLink() async throws {
        try await withFlint { server in
            let email = uniqueEmail()
            let run = try ExampleRun(
                ["email-link", "--url", "http://127.0.0.1:\(server.port)", "--api-key", "test-key"], home: server.directory + "/home")
            run.send(email)
            // The link is emailed by the flint child once the example child asked: polled, another process's state.
            var link: String?
            for _ in 0..<200 where link == nil {
                link = try? await server.oobLink(for: email)
                if link == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            run.send("https://example.com/not-a-link")
            run.send(try #require(link))
            let result = try await run.finish()
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("That is not an email sign-in link"))
            #expect(result.stdout.contains("\"email\" : \"\(email)\""))
        }
    }
}
