public import AsyncHTTPClient
import FlintCore
import Foundation
import NIOHTTP1
import Tracing

/// Sends texts through Twilio's Messages API (`POST /2010-04-01/Accounts/{sid}/Messages.json`, form-encoded,
/// HTTP Basic with the account SID and auth token, or an API key SID and secret).
public struct TwilioSMSSender: SMSSender {
    /// Who the text comes from.
    public enum Sender: Sendable, Equatable {
        /// A Twilio number (E.164) or alphanumeric sender ID.
        case from(String)
        /// A Messaging Service, which picks the number.
        case messagingService(String)
    }

    let endpoint: String
    let authorization: String
    let sender: Sender
    let client: HTTPClient
    /// Traces each call when set (``SMSProvider/sender(url:webhookSecret:clock:tracer:)``).
    var tracer: (any Tracer)?

    /// A sender for the account `accountSID`, authenticating as `username` (the account SID, or an API key SID)
    /// with `password`, against `baseURL` (`https://api.twilio.com` in production).
    public init(
        accountSID: String, username: String? = nil, password: String, sender: Sender, baseURL: String = "https://api.twilio.com",
        client: HTTPClient = .shared
    ) {
        endpoint = baseURL + "/2010-04-01/Accounts/\(accountSID)/Messages.json"
        authorization = "Basic " + Data("\(username ?? accountSID):\(password)".utf8).base64EncodedString()
        self.sender = sender
        self.client = client
    }

    /// Twilio error codes that mean this number cannot get a text (invalid, not mobile, unreachable, opted out).
    static let rejectedNumberCodes: Set<Int> = [21211, 21214, 21612, 21614, 21610]

    public func send(_ message: SMSMessage) async throws {
        var form = [("To", message.to), ("Body", message.body)]
        switch sender {
        case .from(let number): form.append(("From", number))
        case .messagingService(let sid): form.append(("MessagingServiceSid", sid))
        }
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        let answer = try await ProviderHTTP.send(request, body: Array(URLQuery.encode(form).utf8), client: client, tracer: tracer)
        guard !(200..<300).contains(answer.status) else { return }
        // Twilio's error answer: {"code": 21211, "message": "...", "more_info": "...", "status": 400}.
        let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any]
        let code = (object?["code"] as? NSNumber)?.intValue
        let detail = "HTTP \(answer.status), Twilio error \(code.map(String.init) ?? "none")"
        if let code, Self.rejectedNumberCodes.contains(code) { throw SMSDeliveryError(.rejectedNumber, detail) }
        throw SMSDeliveryError(.refused, detail)
    }
}
