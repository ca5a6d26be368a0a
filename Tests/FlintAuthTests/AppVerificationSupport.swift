import Crypto
import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Google app ID the verifying apps are configured with, and the callback scheme it gives.
let testGoogleAppID = "1:123456789:ios:abc123"
let testCallbackScheme = "app-1-123456789-ios-abc123"

extension FlintProcess {
    /// Phone sign-in on, with `testNumbers`, and app verification enforced (admin API).
    func enforceAppVerification(testNumbers: [String: String] = [:]) async throws {
        try await enablePhone(testNumbers: testNumbers)
        try await patchConfig(["signIn": ["phoneNumber": ["appVerification": "ENFORCE"]]], updateMask: "signIn.phoneNumber.appVerification")
    }

    /// An `Auth` for an app that verifies itself: a Google app ID and bundle ID, test mode off.
    func makeVerifyingAuth(appName: String = "verifying-\(UUID().uuidString)", storeDirectory: URL? = nil) -> Auth {
        FlintApp.configure(
            name: appName,
            options: FlintOptions(apiKey: "test-key", projectID: "demo-flint", googleAppID: testGoogleAppID, bundleID: "com.example.app"))
        let directory = storeDirectory ?? URL(fileURLWithPath: directory).appendingPathComponent("store-\(appName)")
        guard let app = FlintApp.app(name: appName) else { preconditionFailure("just configured") }
        let auth = Auth(app: app, storeDirectory: directory)
        auth.useEmulator(withHost: "127.0.0.1", port: port)
        auth.settings?.isAppVerificationDisabledForTesting = false
        return auth
    }
}

/// Plays the device: hands every silent push in the dev outbox to `canHandleNotification` until the SDK accepts it
/// (it may arrive before the SDK has read verifyClient's answer), as iOS would deliver it to the app delegate.
final class PushDevice: Sendable {
    private let delivered = Locked<Set<String>>([])
    private let task: Locked<Task<Void, Never>?> = Locked(nil)

    init(server: FlintProcess, auth: Auth) {
        let delivered = self.delivered
        task.withLock {
            $0 = Task {
                while !Task.isCancelled {
                    for push in (try? await server.pushes()) ?? [] {
                        guard let payload = push["payload"] as? [String: Any],
                            let receipt = (payload["com.google.firebase.auth"] as? [String: Any])?["receipt"] as? String,
                            !delivered.current.contains(receipt)
                        else { continue }
                        var userInfo: [AnyHashable: Any] = [:]
                        for (key, value) in payload { userInfo[key] = value }
                        if auth.canHandleNotification(userInfo) { delivered.withLock { _ = $0.insert(receipt) } }
                    }
                    // The pushes are the flint child's: read again every 50 ms, as another process tells this one nothing.
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
        }
    }

    /// Receipts whose push the SDK accepted.
    var accepted: Set<String> { delivered.current }

    func stop() { task.current?.cancel() }
}

/// Plays the browser of the web challenge: opens the page, solves its puzzle as the page's script would, posts the
/// form, and hands the app-scheme redirect to `canHandle(_:)`. Records what it was asked to open and close.
final class BrowserDelegate: NSObject, AuthUIDelegate, @unchecked Sendable {
    let auth: Auth
    let opened = Locked<[URL]>([])
    let dismissals = Locked(0)
    let failures = Locked<[String]>([])
    /// What the browser does with the callback (default: hand it to `canHandle`).
    let onCallback: @Sendable (URL) -> Void

    // Built anywhere; the delegate methods themselves run on the main actor, as AuthUIDelegate's do.
    nonisolated init(auth: Auth, onCallback: (@Sendable (URL) -> Void)? = nil) {
        self.auth = auth
        self.onCallback = onCallback ?? { [auth] url in _ = auth.canHandle(url) }
    }

    #if os(iOS) || os(tvOS) || os(visionOS)
        func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)?) {}
        func dismiss(animated flag: Bool, completion: (() -> Void)?) {}
    #else
        func presentAppVerification(_ url: URL) {
            opened.withLock { $0.append(url) }
            let onCallback = self.onCallback
            let failures = self.failures
            Task {
                do {
                    onCallback(try await Browser.passChallenge(url))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }

        func dismissAppVerification() { dismissals.withLock { $0 += 1 } }
    #endif
}

/// A minimal browser for the challenge page.
enum Browser {
    /// GETs the page, solves the puzzle, POSTs the form, and returns the `Location` of the 303.
    static func passChallenge(_ url: URL) async throws -> URL {
        let (status, page, _) = try await request(url)
        guard status == 200 else { throw FlintProcessError(message: "challenge page answered \(status): \(page)") }
        var fields = hiddenFields(page)
        guard let puzzle = fields["puzzle"] else { throw FlintProcessError(message: "no puzzle in the page") }
        fields["solution"] = solve(puzzle)
        var post = URLRequest(url: url)
        post.url = URL(string: "/__/auth/handler", relativeTo: url)?.absoluteURL
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(fields.sorted { $0.key < $1.key }.map { "\(escape($0.key))=\(escape($0.value))" }.joined(separator: "&").utf8)
        let (answer, body, location) = try await request(post)
        guard answer == 303, let location, let callback = URL(string: location) else {
            throw FlintProcessError(message: "challenge POST answered \(answer): \(body)")
        }
        return callback
    }

    /// The hidden inputs of the page's form.
    static func hiddenFields(_ html: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in html.split(separator: "\n") where line.hasPrefix("<input type=\"hidden\"") {
            guard let name = attribute("name", String(line)) else { continue }
            out[name] = (attribute("value", String(line)) ?? "").replacingOccurrences(of: "&amp;", with: "&")
        }
        return out
    }

    private static func attribute(_ name: String, _ line: String) -> String? {
        guard let start = line.range(of: "\(name)=\"") else { return nil }
        let rest = line[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The puzzle's solution: `SHA-256(puzzle ":" n)` with 16 leading zero bits, counting `n` up like the page.
    static func solve(_ puzzle: String, bits: Int = 16) -> String {
        var n = 0
        while true {
            let digest = Array(SHA256.hash(data: Data("\(puzzle):\(n)".utf8)))
            var zeros = 0
            for byte in digest {
                if byte == 0 { zeros += 8; continue }
                zeros += byte.leadingZeroBitCount
                break
            }
            if zeros >= bits { return String(n) }
            n += 1
        }
    }

    private static func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// GETs `url` without following redirects: status, body, `Location`.
    static func request(_ url: URL) async throws -> (Int, String, String?) {
        try await request(URLRequest(url: url))
    }

    /// Sends `request` without following redirects: status, body, `Location`.
    static func request(_ request: URLRequest) async throws -> (Int, String, String?) {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                    return
                }
                let http = response as? HTTPURLResponse
                continuation.resume(
                    returning: (http?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self), http?.value(forHTTPHeaderField: "Location")))
            }.resume()
        }
    }
}

/// Stops URLSession from following the challenge's redirect to the app's URL scheme.
final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
