import AsyncHTTPClient
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A status and the whole body.
struct Reply: Sendable {
    let status: Int
    let body: [UInt8]

    var ok: Bool { status == 200 }
    var text: String { String(decoding: body.prefix(400), as: UTF8.self) }
}

/// The few Flint endpoints the benchmark calls, with URLs built once.
struct FlintAPI: Sendable {
    let http: HTTPClient
    let timeout: TimeAmount
    let sendURL: String
    let signInURL: String
    let refreshURL: String
    let lookupURL: String
    let codesURL: String
    let configURL: String
    let sendOobURL: String
    let emailLinkURL: String
    let signUpURL: String
    let passwordURL: String
    let v2: String
    let key: String
    /// `http://host:port`.
    let base: String
    let project: String
    private let jsonHeaders: HTTPHeaders = ["content-type": "application/json"]

    init(http: HTTPClient, target: Target, apiKey: String, project: String, timeout: TimeAmount) {
        self.http = http
        self.timeout = timeout
        let key = apiKey.addingPercentEncodingForQuery
        sendURL = target.base + "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=" + key
        signInURL = target.base + "/identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key=" + key
        refreshURL = target.base + "/securetoken.googleapis.com/v1/token?key=" + key
        lookupURL = target.base + "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=" + key
        codesURL = target.base + "/emulator/v1/projects/\(project)/verificationCodes"
        sendOobURL = target.base + "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:sendOobCode"
        emailLinkURL = target.base + "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink?key=" + key
        signUpURL = target.base + "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=" + key
        passwordURL = target.base + "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=" + key
        v2 = target.base + "/identitytoolkit.googleapis.com/v2/accounts/"
        self.key = key
        base = target.base
        self.project = project
        configURL =
            target.base + "/identitytoolkit.googleapis.com/admin/v2/projects/\(project)/config"
            + "?updateMask=signIn.phoneNumber.testPhoneNumbers"
    }

    // MARK: Calls

    func sendCode(to number: String) async throws -> Reply {
        try await post(sendURL, "{\"phoneNumber\":" + JSONText.quote(number) + "}")
    }

    func signIn(sessionInfo: String, code: String) async throws -> Reply {
        try await post(signInURL, "{\"sessionInfo\":" + JSONText.quote(sessionInfo) + ",\"code\":" + JSONText.quote(code) + "}")
    }

    func lookup(_ idToken: String) async throws -> Reply {
        try await post(lookupURL, "{\"idToken\":" + JSONText.quote(idToken) + "}")
    }

    func refresh(_ refreshToken: String) async throws -> Reply {
        try await post(refreshURL, #"{"grant_type":"refresh_token","refresh_token":"# + JSONText.quote(refreshToken) + "}")
    }

    /// An operator's email sign-in link (`returnOobLink`: stored, not emailed; dev credential).
    func emailSignInCode(for email: String) async throws -> Reply {
        var request = HTTPClientRequest(url: sendOobURL)
        request.method = .POST
        request.headers = jsonHeaders
        request.headers.add(name: "authorization", value: "Bearer owner")
        let body =
            #"{"requestType":"EMAIL_SIGNIN","returnOobLink":true,"canHandleCodeInApp":true,"continueUrl":"http://localhost/","email":"#
            + JSONText.quote(email) + "}"
        request.body = .bytes(Array(body.utf8))
        return try await execute(request, limit: 1 << 20)
    }

    func signInWithEmailLink(email: String, code: String) async throws -> Reply {
        try await post(emailLinkURL, "{\"email\":" + JSONText.quote(email) + ",\"oobCode\":" + JSONText.quote(code) + "}")
    }

    /// A first factor by email link: the operator's code for `email`, then the sign-in with it. Returns the
    /// sign-in's answer, or the name and answer of the step that failed.
    func emailLinkFirstFactor(_ email: String) async throws -> Result<Reply, StepFailure> {
        let sent = try await emailSignInCode(for: email)
        guard sent.ok, let code = JSONText.stringField("oobCode", in: sent.body) else {
            return .failure(StepFailure(step: "sendOobCode", reply: sent))
        }
        let signed = try await signInWithEmailLink(email: email, code: code)
        guard signed.ok else { return .failure(StepFailure(step: "signInWithEmailLink", reply: signed)) }
        return .success(signed)
    }

    func signUp(email: String, password: String) async throws -> Reply {
        try await post(signUpURL, "{\"email\":" + JSONText.quote(email) + ",\"password\":" + JSONText.quote(password) + "}")
    }

    func signInWithPassword(email: String, password: String) async throws -> Reply {
        try await post(passwordURL, "{\"email\":" + JSONText.quote(email) + ",\"password\":" + JSONText.quote(password) + "}")
    }

    /// A v2 MFA call (`mfaEnrollment:start`, `mfaSignIn:finalize`, ...) with a raw JSON body.
    func mfa(_ method: String, _ body: String) async throws -> Reply {
        try await post(v2 + method + "?key=" + key, body)
    }

    /// Turns SMS multi-factor on for the project (dev credential).
    func enableMFA() async throws {
        let base = configURL.split(separator: "?", maxSplits: 1).first.map(String.init) ?? configURL
        var request = HTTPClientRequest(url: base + "?updateMask=mfa")
        request.method = .PATCH
        request.headers = jsonHeaders
        request.headers.add(name: "authorization", value: "Bearer owner")
        request.body = .bytes(Array(#"{"mfa":{"state":"ENABLED","enabledProviders":["PHONE_SMS"]}}"#.utf8))
        let reply = try await execute(request, limit: 1 << 20)
        guard reply.ok else { throw BenchError("enabling MFA failed: HTTP \(reply.status) \(reply.text)") }
    }

    /// All pending codes, number → code.
    func pendingCodes() async throws -> (Reply, [String: String]) {
        var request = HTTPClientRequest(url: codesURL)
        request.method = .GET
        let reply = try await execute(request, limit: 64 << 20)
        guard reply.ok else { return (reply, [:]) }
        let decoded = try JSONDecoder().decode(PendingCodes.self, from: Data(reply.body))
        var map: [String: String] = [:]
        map.reserveCapacity(decoded.verificationCodes.count)
        for entry in decoded.verificationCodes { map[entry.phoneNumber] = entry.code }
        return (reply, map)
    }

    /// The pending code of one number (`?phoneNumber=`, a Flint extension of the emulator listing).
    func pendingCode(for number: String) async throws -> (Reply, String?) {
        var request = HTTPClientRequest(url: codesURL + "?phoneNumber=" + number.addingPercentEncodingForQuery)
        request.method = .GET
        let reply = try await execute(request, limit: 1 << 20)
        guard reply.ok else { return (reply, nil) }
        let decoded = try JSONDecoder().decode(PendingCodes.self, from: Data(reply.body))
        return (reply, decoded.verificationCodes.last?.code)
    }

    /// Sets the project's fictional numbers (dev admin credential).
    func configureTestNumbers(_ tests: [(number: String, code: String)]) async throws {
        let pairs = tests.map { JSONText.quote($0.number) + ":" + JSONText.quote($0.code) }
        let body = #"{"signIn":{"phoneNumber":{"testPhoneNumbers":{"# + pairs.joined(separator: ",") + "}}}}"
        var request = HTTPClientRequest(url: configURL)
        request.method = .PATCH
        request.headers = jsonHeaders
        request.headers.add(name: "authorization", value: "Bearer owner")
        request.body = .bytes(Array(body.utf8))
        let reply = try await execute(request, limit: 1 << 20)
        guard reply.ok else { throw BenchError("configuring test numbers failed: HTTP \(reply.status) \(reply.text)") }
    }

    // MARK: Plumbing

    func post(_ url: String, _ body: String, origin: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers = jsonHeaders
        if let origin { request.headers.add(name: "origin", value: origin) }
        request.body = .bytes(Array(body.utf8))
        return try await execute(request, limit: 1 << 20)
    }

    func execute(_ request: HTTPClientRequest, limit: Int) async throws -> Reply {
        let response = try await http.execute(request, timeout: timeout)
        let buffer = try await response.body.collect(upTo: limit)
        return Reply(status: Int(response.status.code), body: Array(buffer.readableBytesView))
    }
}

struct PendingCodes: Decodable {
    struct Entry: Decodable {
        let code: String
        let phoneNumber: String
    }
    let verificationCodes: [Entry]
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Minimal JSON text helpers: quoting for request bodies, one string field out of a reply without a full parse.
enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func quote(_ text: String) -> String {
        var out = "\""
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// The string value of top-level-looking field `name` (first `"name":"…"` occurrence); falls back to a full
    /// decode when the value holds escapes other than `\/`.
    static func stringField(_ name: String, in body: [UInt8]) -> String? {
        let needle = Array("\"\(name)\"".utf8)
        guard body.count > needle.count else { return nil }
        var i = 0
        let last = body.count - needle.count
        while i <= last {
            if body[i] == needle[0], body[i..<(i + needle.count)].elementsEqual(needle) {
                var j = i + needle.count
                while j < body.count, body[j] == UInt8(ascii: " ") || body[j] == UInt8(ascii: ":") { j += 1 }
                guard j < body.count, body[j] == UInt8(ascii: "\"") else { return nil }
                j += 1
                var out: [UInt8] = []
                out.reserveCapacity(256)
                while j < body.count {
                    let c = body[j]
                    if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                    if c == UInt8(ascii: "\\") {
                        guard j + 1 < body.count else { return nil }
                        switch body[j + 1] {
                        case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
                        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                        default: return fullDecode(name, in: body)
                        }
                        j += 2
                        continue
                    }
                    out.append(c)
                    j += 1
                }
                return nil
            }
            i += 1
        }
        return nil
    }

    private static func fullDecode(_ name: String, in body: [UInt8]) -> String? {
        guard let object = try? JSONDecoder().decode([String: JSONScalar].self, from: Data(body)) else { return nil }
        if case .string(let s)? = object[name] { return s }
        return nil
    }
}

/// A top-level JSON value, only strings kept.
enum JSONScalar: Decodable {
    case string(String)
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let s = try? container.decode(String.self) { self = .string(s) } else { self = .other }
    }
}

extension String {
    /// Percent-encodes everything but unreserved characters (for a query value).
    var addingPercentEncodingForQuery: String {
        var out = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

/// A request of a multi-step operation that did not answer 2xx.
struct StepFailure: Error {
    let step: String
    let reply: Reply
}
