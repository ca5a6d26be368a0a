import FlintCore
import FlintServer
import FlintStore

/// How the users list shows an account's times and sign-in methods.
enum ConsoleUserBadges {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An instant as the list shows it: `short` (`29 Nov 2026, 04:38`, UTC) for the cell, `full` (RFC 3339) for its
    /// `<time>` element's `datetime` and title.
    static func time(_ instant: Instant) -> [String: Any] {
        let full = RFC3339.format(instant)
        let text = Array(full)
        guard text.count >= 16, let month = Int(String(text[5...6])), (1...12).contains(month) else { return ["short": full, "full": full] }
        let day = text[8] == "0" ? String(text[9]) : String(text[8...9])
        return ["short": "\(day) \(months[month - 1]) \(String(text[0...3])), \(String(text[11...15]))", "full": full]
    }

    /// The sign-in methods of an account as `providerUserInfo` lists them (`password` for an email with a password or
    /// an email-link sign-in, `phone`, then its federated identities); `anonymous` for an account with no email, no
    /// phone and no identity, `none` for an email without a way to sign in.
    static func providers(of user: UserRecord, identities: [FederatedIdentityRecord]) -> [String] {
        var ids: [String] = []
        if user.email != nil && (user.passwordHash != nil || user.emailLinkSignIn) { ids.append("password") }
        if user.phoneNumber != nil { ids.append("phone") }
        ids += identities.map(\.providerID)
        if ids.isEmpty { ids.append(user.email == nil ? "anonymous" : "none") }
        return ids
    }

    /// A provider's badge: its name as text, beside an icon (inline SVG the page's policy allows: markup, no style).
    static func badge(_ providerID: String) -> [String: Any] {
        ["label": providerID, "icon": icon(providerID)]
    }

    /// A 16-pixel icon drawn in the text's colour, hidden from screen readers (the name beside it says it).
    private static func icon(_ providerID: String) -> String {
        let path: String =
            switch providerID {
            // A padlock.
            case "password": "M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7zm2 0h4V5a2 2 0 0 0-4 0z"
            // An envelope.
            case "emailLink": "M1 3h14v10H1zm2 2v.4l5 3.3 5-3.3V5zm0 2.8V11h10V7.8L8 11z"
            // A handset.
            case "phone": "M5 1h6a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V2a1 1 0 0 1 1-1zm1 2v9h4V3zm1 10v1h2v-1z"
            // A G.
            case "google.com": "M8 2a6 6 0 1 0 5.9 7H8V7h6a7 7 0 1 1-1.9-3.8l-1.4 1.4A5 5 0 0 0 8 2z"
            // An apple.
            case "apple.com", "gc.apple.com":
                "M8 4c1-2 3-2 3-2s0 2-2 2.5C11 4 13 5 13 8c0 3-2 7-3.5 7-1 0-1-.5-1.5-.5s-.5.5-1.5.5C5 15 3 11 3 8c0-3 2-4 5-4z"
            // A cat's head, GitHub's octocat reduced.
            case "github.com": "M2 2l3 2.5a7 7 0 0 1 6 0L14 2v6a6 6 0 0 1-12 0zm4 6a1 1 0 1 0 0 .1zm4 0a1 1 0 1 0 0 .1z"
            // A person's outline.
            case "anonymous":
                "M8 1a3.5 3.5 0 1 1 0 7 3.5 3.5 0 0 1 0-7zm0 2a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM2 15c0-3 3-5 6-5s6 2 6 5h-2c0-2-2-3-4-3s-4 1-4 3z"
            // A dash.
            case "none": "M3 7h10v2H3z"
            // A globe: any other identity provider.
            default:
                "M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zm-1 2.1A5 5 0 0 0 3.1 7H5c.1-1.5.8-2.9 2-3.9zm2 0c1.2 1 1.9 2.4 2 3.9h1.9A5 5 0 0 0 9 3.1zM7 7h2c-.1-1-.5-2-1-2.6C7.5 5 7.1 6 7 7zm-3.9 2A5 5 0 0 0 7 12.9 6 6 0 0 1 5 9zm3.9 0c.1 1 .5 2 1 2.6.5-.6.9-1.6 1-2.6zm4 0a6 6 0 0 1-2 3.9A5 5 0 0 0 12.9 9z"
            }
        return
            #"<svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path fill="currentColor" d="\#(path)"/></svg>"#
    }
}
