import Foundation

/// The command line: `flint-auth-example [phone|email-link] [--url URL] [--api-key KEY] [--project ID]
/// [--continue-url URL]`.
struct ExampleOptions: Equatable {
    enum Flow: String, Equatable {
        case phone
        case emailLink = "email-link"
    }

    var flow: Flow?
    var url = URL(string: "http://127.0.0.1:9099")!
    var apiKey = "dev"
    var projectID = "demo-flint"
    var continueURL = URL(string: "http://localhost/finish")!
    var help = false

    static let usage = """
        Usage: flint-auth-example [phone | email-link] [options]

        Signs in to a running `flint serve` with FlintAuth, asking for what it needs on standard input.
          phone         send a code by SMS to a number, then sign in with the code
          email-link    email a sign-in link, then sign in with the pasted link
        With no flow, asks which one.

        Options:
          --url URL             the server (default http://127.0.0.1:9099)
          --api-key KEY         the API key (default dev)
          --project ID          the project ID (default demo-flint)
          --continue-url URL    where the email link continues (default http://localhost/finish; its domain must be
                                authorized on the server)
          -h, --help            this text
        """

    /// Parses the arguments (without the program name).
    /// - Throws: `UsageError` for an unknown flow or option, or an option without a valid value.
    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": help = true
            case "--url": url = try Self.url(rest.popFirst(), for: argument)
            case "--continue-url": continueURL = try Self.url(rest.popFirst(), for: argument)
            case "--api-key": apiKey = try Self.value(rest.popFirst(), for: argument)
            case "--project": projectID = try Self.value(rest.popFirst(), for: argument)
            default:
                guard flow == nil, let chosen = Flow(rawValue: argument) else {
                    throw UsageError(message: "unexpected argument '\(argument)'")
                }
                flow = chosen
            }
        }
    }

    private static func value(_ value: String?, for option: String) throws(UsageError) -> String {
        guard let value, !value.isEmpty, !value.hasPrefix("--") else { throw UsageError(message: "\(option) needs a value") }
        return value
    }

    private static func url(_ text: String?, for option: String) throws(UsageError) -> URL {
        let text = try value(text, for: option)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { throw UsageError(message: "\(option) needs an http(s) URL, not '\(text)'") }
        return url
    }
}

/// A command-line mistake, reported with the usage text.
struct UsageError: Error, Equatable {
    let message: String
}
