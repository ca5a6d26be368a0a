import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The users list's bulk actions: the selected accounts (checkboxes named `u:<local ID>`) and an action, confirmed
/// once on a page that lists them, then run account by account through the single action's flow
/// (``ConsoleFlow/perform(_:on:claims:factor:passkey:by:ip:)``), each audited on its own.
extension ConsoleRoutes {
    /// The actions the list offers for several accounts at once.
    static let bulkActions: [ConsoleUserAction] = [.disable, .enable, .revoke, .delete]

    /// The most accounts one bulk action takes: the largest page.
    static let bulkLimit = ConsoleUserList.pageSizes.max() ?? 200

    /// How the confirmation and the result name a bulk action.
    static func bulkVerb(_ action: ConsoleUserAction) -> String {
        switch action {
        case .enable: "Enable"
        case .revoke: "Revoke every session of"
        case .delete: "Delete"
        default: "Disable"
        }
    }

    func bulkAct(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            let ids = form.keys.filter { $0.hasPrefix("u:") }.map { String($0.dropFirst(2)) }.filter { !$0.isEmpty }.sorted()
            guard let action = form["action"].flatMap(ConsoleUserAction.init(rawValue:)), Self.bulkActions.contains(action) else {
                return pages.message("Refused", "Unknown action.", caller: caller, status: .badRequest)
            }
            guard !ids.isEmpty, ids.count <= Self.bulkLimit else {
                return pages.message(
                    "Users", "Select between 1 and \(Self.bulkLimit) accounts.", link: ("/console/users", "Back to users"), caller: caller,
                    status: .badRequest)
            }
            let verb = Self.bulkVerb(action)
            let accountsText = "\(ids.count) account\(ids.count == 1 ? "" : "s")"
            let title = "Users — \(verb.lowercased()) \(accountsText)"
            guard form["confirmed"] == "yes" else {
                let known = try await flow.node.store.read { try await $0.users(tenant: .scoped, localIDs: ids) }
                let byID = Dictionary(known.map { ($0.localID, $0) }, uniquingKeysWith: { first, _ in first })
                let accounts: [[String: Any]] = ids.map { id in
                    let user = byID[id]
                    return ["localId": id, "email": user?.email ?? "", "phone": user?.phoneNumber ?? "", "missing": user == nil]
                }
                let data: [String: Any] = [
                    "action": action.rawValue, "question": "\(verb) \(ids.count == 1 ? "this account" : "these \(accountsText)")?",
                    "accounts": accounts,
                ]
                return pages.page("bulkConfirm", title: title, data, caller: caller)
            }
            var results: [[String: Any]] = []
            for id in ids {
                do {
                    try await flow.perform(action, on: id, claims: nil, factor: nil, by: caller, ip: context.clientIP)
                    results.append(["localId": id, "result": "done", "ok": true])
                } catch let error as AuthError {
                    results.append(["localId": id, "result": error.message, "ok": false])
                }
            }
            let failed = results.filter { $0["ok"] as? Bool == false }.count
            let summary = "\(verb) \(accountsText): \(ids.count - failed) done, \(failed) refused."
            return pages.page("bulkDone", title: title, ["summary": summary, "results": results, "deleted": action == .delete], caller: caller)
        }
    }
}
