import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP server that answers each connection with the next scripted answer (a status and a JSON body), or
/// with a handler's reply, and closes it, recording each request; for answers no real server gives on demand (gateway errors, dropped
/// connections) and for standing in for a provider Flint calls (an SMS API).
public final class ScriptedHTTPServer: @unchecked Sendable {
    /// An answer: an HTTP status with a body, or a connection closed without any answer.
    public enum Answer: Sendable {
        case status(Int, String)
        case drop
    }

    /// A request as a ``init(handler:)`` server's handler sees it.
    public struct Request: Sendable {
        /// `GET`, `POST`…
        public let method: String
        /// The request target: path and query.
        public let target: String
        public let body: String
    }

    /// A handler's answer: a status, header fields and a body.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: String

        public init(status: Int, headers: [String: String] = [:], body: String = "") {
            (self.status, self.headers, self.body) = (status, headers, body)
        }
    }

    public let port: Int
    private let socket: Int32
    private let lock = NSLock()
    private var script: [Answer]
    private let handler: (@Sendable (Request) -> Reply)?
    private var heads: [String] = []
    private var bodies: [[UInt8]] = []

    /// Starts listening on a free loopback port and serves `script` in order (then 500s).
    public convenience init(script: [Answer]) throws {
        try self.init(script: script, handler: nil)
    }

    /// Starts listening on a free loopback port and answers every request with `handler`'s reply: a stand-in
    /// whose answers depend on the request (an OAuth provider's authorization and token endpoints).
    public convenience init(handler: @escaping @Sendable (Request) -> Reply) throws {
        try self.init(script: [], handler: handler)
    }

    private init(script: [Answer], handler: (@Sendable (Request) -> Reply)?) throws {
        self.script = script
        self.handler = handler
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
    public var requestLines: [String] { lock.withLock { heads.map { $0.components(separatedBy: "\r\n").first ?? "" } } }

    /// The header fields of each request seen so far, names lower-cased.
    public var requestHeaders: [[String: String]] {
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

    /// The body of each request seen so far.
    public var requestBodies: [String] { lock.withLock { bodies.map { String(decoding: $0, as: UTF8.self) } } }

    /// The body of each request seen so far, as bytes (a binary body: an OTLP export in protobuf).
    public var requestBodyBytes: [[UInt8]] { lock.withLock { bodies } }

    /// Stops accepting connections.
    public func stop() { shutdown(socket, Int32(SHUT_RDWR)); close(socket) }

    private func serve() {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { return }
            let (head, body) = Self.readRequest(client)
            if let handler {
                lock.withLock {
                    heads.append(head)
                    bodies.append(body)
                }
                let line = (head.components(separatedBy: "\r\n").first ?? "").split(separator: " ")
                let reply = handler(
                    Request(
                        method: line.first.map(String.init) ?? "", target: line.count > 1 ? String(line[1]) : "/",
                        body: String(decoding: body, as: UTF8.self)))
                let fields = reply.headers.map { "\($0.key): \($0.value)\r\n" }.joined()
                let response =
                    "HTTP/1.1 \(reply.status) Handled\r\n\(fields)Content-Length: \(reply.body.utf8.count)\r\nConnection: close\r\n\r\n\(reply.body)"
                _ = response.utf8CString.withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count - 1) }
                close(client)
                continue
            }
            let answer = lock.withLock { () -> Answer in
                heads.append(head)
                bodies.append(body)
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

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body.
    private static func readRequest(_ client: Int32) -> (head: String, body: [UInt8]) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while received.count < 1 << 20 {
            if let end = received.firstRange(of: separator) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let length =
                    head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count - end.upperBound >= length {
                    return (head, Array(received[end.upperBound..<(end.upperBound + length)]))
                }
            }
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer.prefix(count)
        }
        return (String(decoding: received, as: UTF8.self), [])
    }
}
