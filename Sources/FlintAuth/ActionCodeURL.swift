public import Foundation

/// The parts of an emailed action link, as FirebaseAuth's `ActionCodeURL`: read offline from the link's query (or
/// from the query of a link wrapped in it), without asking the server whether the code is still valid.
public final class ActionCodeURL: Sendable {
    /// The API key the link was made for (`apiKey`).
    public let apiKey: String?
    /// What the link is for (`mode`).
    public let operation: ActionCodeOperation
    /// The action code (`oobCode`).
    public let code: String?
    /// Where the app continues after the action (`continueUrl`).
    public let continueURL: URL?
    /// The language the link was sent in (`lang`).
    public let languageCode: String?

    /// The parts of `link`, or `nil` when neither its query nor a link in its query has parameters.
    public init?(link: String) {
        let items = actionLinkParameters(link)
        guard !items.isEmpty else { return nil }
        apiKey = items["apiKey"]
        operation = ActionCodeOperation(requestType: items["mode"])
        code = items["oobCode"]
        continueURL = items["continueUrl"].flatMap(URL.init(string:))
        languageCode = items["lang"]
    }
}
