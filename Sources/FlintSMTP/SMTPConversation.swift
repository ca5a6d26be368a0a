#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The client's side of one SMTP session as a state machine with no I/O: it is given each reply and answers with the
/// next step. Greeting → EHLO (HELO if EHLO is unknown) → STARTTLS and EHLO again when configured → AUTH PLAIN or
/// LOGIN when there are credentials → MAIL FROM → RCPT TO for each recipient → DATA → the message.
///
/// Any reply other than the expected one ends the session: 4xx as `transient`, 5xx as `permanent`.
struct SMTPConversation: Sendable {
    /// What the driver does next.
    enum Step: Sendable, Equatable {
        /// Send a command and feed its reply to `receive(_:)`.
        case send(SMTPCommand)
        /// The server agreed to STARTTLS (TLS is in front of the connection now): call `tlsStarted()`.
        case startTLS
        /// Send the dot-stuffed message and feed the reply to `receive(_:)`.
        case sendData
        /// The server has taken the message with this reply; say QUIT and close.
        case delivered(SMTPReply)
    }

    private enum State: Sendable, Equatable {
        case greeting, ehlo, helo, startTLS, handshake, authPlain, authLoginUser, authLoginPassword, authLoginDone, mailFrom
        case recipient(Int), data, message, done
    }

    private let settings: SMTPSettings
    private let sender: String
    private let recipients: [String]
    private var state = State.greeting
    private var tlsActive: Bool
    private var extensions: [[String]] = []

    /// A session that will send from `sender` to `recipients`; `tlsActive` when the connection began with TLS.
    init(settings: SMTPSettings, sender: String, recipients: [String], tlsActive: Bool) {
        self.settings = settings
        self.sender = sender
        self.recipients = recipients
        self.tlsActive = tlsActive
    }

    /// The next step after the server's `reply`.
    /// - Throws: `SMTPError` for a refusal or for a server that lacks what the settings require (STARTTLS, AUTH).
    mutating func receive(_ reply: SMTPReply) throws(SMTPError) -> Step {
        switch state {
        case .greeting:
            guard reply.code == 220 else { throw reply.failure(after: "connecting") }
            return ehlo()
        case .ehlo:
            if reply.code == 250 {
                extensions = reply.extensions
                return try afterHello()
            }
            // A server without ESMTP: HELO is enough when neither STARTTLS nor AUTH is needed.
            if reply.code == 500 || reply.code == 502, !needsTLSUpgrade, settings.username == nil {
                state = .helo
                return .send(SMTPCommand(line: "HELO \(settings.heloName)", name: "HELO"))
            }
            throw reply.failure(after: "EHLO")
        case .helo:
            guard reply.code == 250 else { throw reply.failure(after: "HELO") }
            return mailFrom()
        case .startTLS:
            guard reply.code == 220 else { throw reply.failure(after: "STARTTLS") }
            state = .handshake
            return .startTLS
        case .authPlain, .authLoginDone:
            guard reply.code == 235 else { throw reply.failure(after: "AUTH") }
            return mailFrom()
        case .authLoginUser:
            guard reply.code == 334 else { throw reply.failure(after: "AUTH LOGIN") }
            state = .authLoginPassword
            return .send(SMTPCommand(line: Self.base64(settings.username ?? ""), name: "AUTH LOGIN user"))
        case .authLoginPassword:
            guard reply.code == 334 else { throw reply.failure(after: "AUTH LOGIN user") }
            state = .authLoginDone
            return .send(SMTPCommand(line: Self.base64(settings.password ?? ""), name: "AUTH LOGIN password"))
        case .mailFrom:
            guard reply.code == 250 else { throw reply.failure(after: "MAIL FROM") }
            guard !recipients.isEmpty else { throw .invalidMessage("the message has no recipients") }
            return recipient(0)
        case .recipient(let index):
            guard reply.code == 250 || reply.code == 251 else { throw reply.failure(after: "RCPT TO") }
            if index + 1 < recipients.count { return recipient(index + 1) }
            state = .data
            return .send(SMTPCommand(line: "DATA", name: "DATA"))
        case .data:
            guard reply.code == 354 else { throw reply.failure(after: "DATA") }
            state = .message
            return .sendData
        case .message:
            guard reply.code == 250 else { throw reply.failure(after: "end of DATA") }
            state = .done
            return .delivered(reply)
        case .handshake, .done:
            throw .protocolViolation("a reply after the conversation's end: \(reply)")
        }
    }

    /// The step after the TLS handshake: EHLO again, since the server forgets everything said in clear.
    mutating func tlsStarted() -> Step {
        tlsActive = true
        return ehlo()
    }

    /// The AUTH mechanisms the server offered in its last EHLO reply (`AUTH PLAIN LOGIN` or the old `AUTH=PLAIN`).
    var authMechanisms: Set<String> {
        var found: Set<String> = []
        for line in extensions {
            guard let keyword = line.first else { continue }
            if keyword == "AUTH" { found.formUnion(line.dropFirst()) }
            if keyword.hasPrefix("AUTH=") { found.insert(String(keyword.dropFirst(5))) }
        }
        return found
    }

    private var needsTLSUpgrade: Bool { settings.security == .startTLS && !tlsActive }

    private mutating func ehlo() -> Step {
        state = .ehlo
        return .send(SMTPCommand(line: "EHLO \(settings.heloName)", name: "EHLO"))
    }

    private mutating func afterHello() throws(SMTPError) -> Step {
        if needsTLSUpgrade {
            guard extensions.contains(where: { $0.first == "STARTTLS" }) else {
                throw .tls("the server does not offer STARTTLS; refusing to go on without TLS")
            }
            state = .startTLS
            return .send(SMTPCommand(line: "STARTTLS", name: "STARTTLS", upgradesToTLS: true))
        }
        guard let username = settings.username else { return mailFrom() }
        guard tlsActive || settings.security == .none else {
            throw .tls("refusing to send credentials without TLS")
        }
        let password = settings.password ?? ""
        let offered = authMechanisms
        if offered.contains("PLAIN") {
            state = .authPlain
            return .send(SMTPCommand(line: "AUTH PLAIN " + Self.base64("\0\(username)\0\(password)"), name: "AUTH PLAIN"))
        }
        if offered.contains("LOGIN") {
            state = .authLoginUser
            return .send(SMTPCommand(line: "AUTH LOGIN", name: "AUTH LOGIN"))
        }
        let list = offered.isEmpty ? "none" : offered.sorted().joined(separator: " ")
        throw .protocolViolation("credentials are configured but the server offers no AUTH PLAIN or LOGIN (offered: \(list))")
    }

    private mutating func mailFrom() -> Step {
        state = .mailFrom
        return .send(SMTPCommand(line: "MAIL FROM:<\(sender)>", name: "MAIL FROM"))
    }

    private mutating func recipient(_ index: Int) -> Step {
        state = .recipient(index)
        return .send(SMTPCommand(line: "RCPT TO:<\(recipients[index])>", name: "RCPT TO"))
    }

    private static func base64(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
    }
}
