public import FlintCore
import Foundation
public import Tracing

/// `flint serve --sms URL`: which provider delivers texts.
/// - `twilio://ACCOUNT_SID:AUTH_TOKEN@api.twilio.com?from=%2B15551234567` (or `messagingServiceSid=MG…`; the host may
///   be left out; `ACCOUNT_SID` may be `API_KEY_SID` with `accountSid=AC…` in the query);
/// - `https://hooks.example.com/sms`: a webhook, signed with `--sms-webhook-secret`;
/// - `twilio+http://…` and `http://…`: the same over plain HTTP, for a loopback host only (a local relay or a test).
public enum SMSProvider {
    /// The sender a provider URL describes; with a `tracer`, each call to the provider is traced (``OutgoingCall``).
    /// - Throws: ``SMSProviderError`` saying what is wrong with the URL.
    public static func sender(
        url text: String, webhookSecret: String?, clock: any WallClock = SystemClock(), tracer: (any Tracer)? = nil
    ) throws(SMSProviderError) -> any SMSSender {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty || scheme == "twilio"
        else {
            throw SMSProviderError("not a URL: give twilio://SID:TOKEN@?from=+1… or https://your-webhook")
        }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        switch scheme {
        case "twilio", "twilio+http":
            if scheme == "twilio+http", !loopback { throw SMSProviderError("twilio+http is for a loopback host only") }
            guard let user = url.user?.removingPercentEncoding, !user.isEmpty, let password = url.password?.removingPercentEncoding,
                !password.isEmpty
            else { throw SMSProviderError("twilio:// needs SID:TOKEN@ (the account SID and auth token, or an API key SID and secret)") }
            let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
            let sender: TwilioSMSSender.Sender
            if let from = query["from"], !from.isEmpty {
                sender = .from(from)
            } else if let service = query["messagingServiceSid"], !service.isEmpty {
                sender = .messagingService(service)
            } else {
                throw SMSProviderError("twilio:// needs ?from=+1… (a Twilio number) or ?messagingServiceSid=MG…")
            }
            let account = query["accountSid"].flatMap { $0.isEmpty ? nil : $0 } ?? user
            let base = (scheme == "twilio" ? "https://" : "http://") + (host.isEmpty ? "api.twilio.com" : host) + (url.port.map { ":\($0)" } ?? "")
            var twilio = TwilioSMSSender(accountSID: account, username: user, password: password, sender: sender, baseURL: base)
            twilio.tracer = tracer
            return twilio
        case "https", "http":
            if scheme == "http", !loopback { throw SMSProviderError("a webhook must be https:// (http:// only for a loopback host)") }
            guard let secret = webhookSecret, secret.utf8.count >= 16 else {
                throw SMSProviderError("a webhook needs --sms-webhook-secret (16 characters or more) to sign its requests")
            }
            var webhook = WebhookSMSSender(url: text, secret: secret, clock: clock)
            webhook.tracer = tracer
            return webhook
        default:
            throw SMSProviderError("unknown scheme \(scheme): use twilio:// or https://")
        }
    }
}

/// What is wrong with an `--sms` URL.
public struct SMSProviderError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
