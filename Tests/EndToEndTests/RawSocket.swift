import FlintTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP client socket on 127.0.0.1, for tests that misbehave on purpose (half requests, bodies over the limit, many
/// connections) in ways an HTTP client library will not. Its calls block (`connect`, `send`, `poll`, `recv`): a test
/// makes them inside ``conversation(_:)``, on a thread of its own, never on one of the cooperative pool's.
final class RawSocket: Sendable {
    let fd: Int32

    /// Connects to `127.0.0.1:port`.
    init(port: Int) throws {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw FlintProcessError(message: "socket() failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw FlintProcessError(message: "connect() failed: \(errno)")
        }
        self.fd = fd
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Runs `body`, a test's whole exchange with a server (its connections, writes and reads, and the time between
    /// them), on a thread of its own, and returns what it returns.
    ///
    /// Inside the whole suite the cooperative pool's two threads run hundreds of tests, and a task whose `await` has
    /// returned may wait minutes for its turn to go on (146 s seen on a loaded machine). An exchange timed against a
    /// server's limits (an idle timeout, a drain window) must not have such gaps between its steps: the server would act
    /// in them (close the held connections as idle, stop listening) and the test would see something else than what it
    /// checks.
    static func conversation<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await onOwnThread { Result { try body() } }.get()
    }

    /// Sends `bytes`; returns how many went out before the peer stopped taking them (closed or reset).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Int {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        return sent
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    /// What the peer sends within `timeout` seconds, until it closes; `closed` tells whether it closed (EOF or reset).
    func read(timeout: Double) -> (text: String, closed: Bool) {
        var data = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return (String(decoding: data, as: UTF8.self), false) }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(left * 1000))
            if ready <= 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (String(decoding: data, as: UTF8.self), true) }
            data += buffer[0..<n]
        }
    }

    /// Reads one HTTP answer with a `Content-Length` (headers and body), or what came before the peer closed.
    func readResponse(timeout: Double) -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 100) <= 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text[..<end.upperBound].utf8.count >= length { break }
            }
        }
        return text
    }

    /// `GET path` on a connection of its own (`Connection: close`): the answer's status and body.
    /// - Throws: when the connection is refused, or no whole answer comes within `timeout` seconds.
    static func get(port: Int, _ path: String, timeout: Double = 10) throws -> (status: Int, body: String) {
        let socket = try RawSocket(port: port)
        socket.write("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let text = socket.readResponse(timeout: timeout)
        guard let end = text.range(of: "\r\n\r\n"), text.hasPrefix("HTTP/1.1 "), let status = Int(text.dropFirst(9).prefix(3)) else {
            throw FlintProcessError(message: "no answer to GET \(path) within \(timeout) s: \(text.prefix(200))")
        }
        return (status, String(text[end.upperBound...]))
    }
}

/// How many descriptors process `pid` holds open.
func openDescriptors(of pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
}

/// The resident memory of a process in KiB (`VmRSS` in `/proc/PID/status`), or -1 when unreadable.
func residentKiB(of pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return -1 }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
}
