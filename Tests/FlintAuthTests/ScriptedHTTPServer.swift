import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP server that answers each connection with the next scripted answer (a status and a JSON body)
/// and closes it, recording the request lines; for testing how the SDK handles answers no real server gives on
/// demand (gateway errors, dropped connections).
final class ScriptedHTTPServer: @unchecked Sendable {
    /// An answer: an HTTP status with a body, or a connection closed without any answer.
    enum Answer: Sendable {
        case status(Int, String)
        case drop
    }

    let port: Int
    private let socket: Int32
    private let lock = NSLock()
    private var script: [Answer]
    private var heads: [String] = []

    /// Starts listening on a free loopback port and serves `script` in order (then 500s).
    init(script: [Answer]) throws {
        self.script = script
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 16) == 0 else { throw CocoaError(.fileWriteUnknown) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The request lines seen so far (`POST /path?key=… HTTP/1.1`).
    var requestLines: [String] { lock.withLock { heads.map { $0.components(separatedBy: "\r\n").first ?? "" } } }

    /// The header fields of each request seen so far, names lower-cased.
    var requestHeaders: [[String: String]] {
        lock.withLock {
            heads.map { head in
                var fields: [String: String] = [:]
                for line in head.components(separatedBy: "\r\n").dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                return fields
            }
        }
    }

    /// Stops accepting connections.
    func stop() { shutdown(socket, Int32(SHUT_RDWR)); close(socket) }

    private func serve() {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(client, &buffer, buffer.count)
            let text = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            let answer = lock.withLock { () -> Answer in
                heads.append(text.components(separatedBy: "\r\n\r\n").first ?? "")
                return script.isEmpty ? .status(500, "{}") : script.removeFirst()
            }
            if case .status(let status, let body) = answer {
                let response =
                    "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                _ = response.utf8CString.withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count - 1) }
            }
            close(client)
        }
    }
}
