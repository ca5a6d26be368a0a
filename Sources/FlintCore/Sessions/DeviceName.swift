/// A session's device as a person reads it — "Safari on iPhone", "Chrome on Windows", "FirebaseAuth iOS SDK",
/// "Node.js" — made from the request's `User-Agent` and, for the Firebase SDKs, their `X-Client-Version`.
///
/// A browser is named by its user agent (the JS SDK's client version says only "JsCore"); an app's SDK by its client
/// version (an iOS app's user agent names only the app and CFNetwork); other clients by the first product of their
/// user agent. Nothing of the raw header is kept beyond the short name.
package enum DeviceName {
    /// The longest name kept.
    package static let maxLength = 64

    /// The short name, or `nil` when the request said nothing recognisable.
    package static func parse(userAgent: String?, clientVersion: String? = nil) -> String? {
        let agent = userAgent ?? ""
        if let browser = browser(agent) { return browser }
        if let sdk = sdk(clientVersion ?? "") { return sdk }
        return tool(agent)
    }

    /// A browser and its platform from a browser's user agent.
    static func browser(_ agent: String) -> String? {
        guard agent.hasPrefix("Mozilla/") else { return nil }
        // Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
        let browsers: [(token: String, name: String)] = [
            ("EdgiOS/", "Edge"), ("EdgA/", "Edge"), ("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser/", "Samsung Internet"),
            ("FxiOS/", "Firefox"), ("Firefox/", "Firefox"), ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
        ]
        guard let browser = browsers.first(where: { agent.contains($0.token) })?.name else { return nil }
        return platform(agent).map { "\(browser) on \($0)" } ?? browser
    }

    /// The platform a browser's user agent names.
    static func platform(_ agent: String) -> String? {
        let platforms: [(token: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"), ("Windows", "Windows"),
            ("Macintosh", "Mac"), ("Linux", "Linux"),
        ]
        return platforms.first { agent.contains($0.token) }?.name
    }

    /// A Firebase SDK from its `X-Client-Version` (`iOS/FirebaseSDK/10.29.0/FirebaseCore-iOS`,
    /// `Android/Fallback/X22001000/FirebaseCore-Android`, `Swift/FlintAuth/1.0`).
    static func sdk(_ version: String) -> String? {
        let parts = version.split(separator: "/")
        guard let first = parts.first else { return nil }
        if parts.count > 1, parts[1] == "FlintAuth" { return "FlintAuth" }
        switch first {
        case "iOS": return "FirebaseAuth iOS SDK"
        case "Android": return "FirebaseAuth Android SDK"
        case "Flutter": return "FirebaseAuth Flutter SDK"
        case "Unity": return "FirebaseAuth Unity SDK"
        case "C++", "Cpp": return "FirebaseAuth C++ SDK"
        default: return nil
        }
    }

    /// A non-browser client by its user agent's first product.
    static func tool(_ agent: String) -> String? {
        let product = agent.split(separator: " ").first.map { String($0.split(separator: "/").first ?? $0) } ?? ""
        switch product.lowercased() {
        case "": return nil
        case "node", "node-fetch", "undici", "axios": return "Node.js"
        case "curl": return "curl"
        case "python-requests", "python-urllib3", "python-httpx", "aiohttp": return "Python"
        case "go-http-client": return "Go"
        case "okhttp", "dalvik": return "Android app"
        case "java", "apache-httpclient": return "Java"
        default:
            if agent.contains("CFNetwork/") || agent.contains("Darwin/") { return "\(clipped(product)) (Apple app)" }
            return clipped(product)
        }
    }

    private static func clipped(_ text: String) -> String {
        let printable = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.map(Character.init))
        return String(printable.prefix(maxLength))
    }
}
