import FlintTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP client socket on 127.0.0.1, for tests that misbehave on purpose (half requests, bodies over the limit, many
/// connections) in ways an HTTP client library will not. Its calls block (`send`, `poll`, `recv`), each on a thread of
/// its own (``onOwnThread(_:)``), never on one of the cooperative pool's.
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

    /// Sends `bytes`; returns how many went out before the peer stopped taking them (closed or reset).
    @discardableResult
    func write(_ bytes: [UInt8]) async -> Int {
        await onOwnThread { [self] in writeBlocking(bytes) }
    }

    func write(_ text: String) async { await write(Array(text.utf8)) }

    private func writeBlocking(_ bytes: [UInt8]) -> Int {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        return sent
    }

    /// What the peer sends within `timeout` seconds, until it closes; `closed` tells whether it closed (EOF or reset).
    func read(timeout: Double) async -> (text: String, closed: Bool) {
        await onOwnThread { [self] in readBlocking(timeout: timeout) }
    }

    private func readBlocking(timeout: Double) -> (text: String, closed: Bool) {
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
    func readResponse(timeout: Double) async -> String {
        await onOwnThread { [self] in readResponseBlocking(timeout: timeout) }
    }

    private func readResponseBlocking(timeout: Double) -> String {
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
