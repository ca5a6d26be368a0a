#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SMTPSettings {
    /// Parses a server URL:
    /// - `smtp://user:pass@host:587`: STARTTLS, port 587 when none is given;
    /// - `smtps://user:pass@host:465`: TLS from the start, port 465 when none is given;
    /// - `smtp://host:25?security=none`: no encryption (port 25 when none is given); only ever chosen this way.
    ///
    /// The user and password are percent-decoded. Query options: `security` (`starttls`, `tls` or `none`), `helo`
    /// (the EHLO name), `ca` (a PEM file of CA certificates to trust instead of the system's), `verify=false` (no
    /// certificate checks, for testing only). The rest of the settings keep their defaults.
    /// - Throws: `SMTPError.invalidSettings` with a message for a person.
    public init(url: String) throws {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased() else {
            throw SMTPError.invalidSettings("'\(Self.redacted(url))' is not a URL (percent-encode special characters in the user and password)")
        }
        var security: Security
        switch scheme {
        case "smtp": security = .startTLS
        case "smtps": security = .implicitTLS
        default: throw SMTPError.invalidSettings("the URL scheme must be smtp or smtps, not '\(scheme)'")
        }
        guard var host = parts.host, !host.isEmpty else { throw SMTPError.invalidSettings("the URL names no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard parts.path.isEmpty || parts.path == "/" else { throw SMTPError.invalidSettings("an SMTP URL has no path") }

        var heloName = "localhost"
        var trustRootsFile: String?
        var verifyCertificate = true
        for item in parts.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name.lowercased() {
            case "security":
                guard let chosen = Self.security(named: value) else {
                    throw SMTPError.invalidSettings("security must be starttls, tls or none, not '\(value)'")
                }
                guard scheme == "smtp" || chosen == .implicitTLS else {
                    throw SMTPError.invalidSettings("an smtps URL always uses TLS from the start")
                }
                security = chosen
            case "helo": heloName = value
            case "ca":
                guard !value.isEmpty else { throw SMTPError.invalidSettings("ca must name a PEM file") }
                trustRootsFile = value
            case "verify":
                switch value.lowercased() {
                case "true", "1", "yes": verifyCertificate = true
                case "false", "0", "no": verifyCertificate = false
                default: throw SMTPError.invalidSettings("verify must be true or false, not '\(value)'")
                }
            default: throw SMTPError.invalidSettings("unknown option '\(item.name)' (known: security, helo, ca, verify)")
            }
        }
        let defaultPort =
            switch security {
            case .startTLS: 587
            case .implicitTLS: 465
            case .none: 25
            }
        self.init(
            host: host, port: parts.port ?? defaultPort, security: security, username: parts.user, password: parts.password,
            heloName: heloName, trustRootsFile: trustRootsFile, verifyCertificate: verifyCertificate
        )
        if username != nil, password == nil { password = "" }
        try validate()
    }

    private static func security(named name: String) -> Security? {
        switch name.lowercased() {
        case "starttls": .startTLS
        case "tls", "ssl", "implicittls", "implicit": .implicitTLS
        case "none", "plain": Security.none
        default: nil
        }
    }

    /// The URL with anything between `://` and `@` hidden, for error messages.
    private static func redacted(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://"), let at = url[scheme.upperBound...].lastIndex(of: "@") else { return url }
        return url[..<scheme.upperBound] + "***" + url[at...]
    }
}
