import FlintCore
import FlintServer

/// The settings page's session lifetimes (`flint.sessions`): idle timeout and absolute lifetime, typed in hours (empty:
/// off, Firebase's behaviour), saved through the admin config API's update, whose checks refuse a bad value.
enum ConsoleSessionLifetimes {
    /// The form's fields and their config paths.
    static let fields = [("idleTimeoutHours", "flint.sessions.idleTimeout"), ("absoluteLifetimeHours", "flint.sessions.absoluteLifetime")]

    /// The settings group: each field's hours as a protobuf duration; a text that is no whole number goes as it is,
    /// for the config to refuse.
    static let group = ConsoleSettingsGroup(
        name: "sessions", mask: ["flint.sessions"], fields: fields, echo: fields.map(\.0)
    ) { form, _ in
        var sessions: [String: JSONValue] = [:]
        for (field, path) in fields {
            let text = (form[field] ?? "").trimmingSpaces
            guard !text.isEmpty else { continue }
            let key = String(path.split(separator: ".").last ?? "")
            sessions[key] = .string(Int64(text).map { "\($0 * 3600)s" } ?? text)
        }
        return ["flint": ["sessions": .object(sessions)]]
    }

    /// The page's values: each lifetime in hours, empty when off.
    static func data(_ config: ProjectConfig) -> [String: Any] {
        let lifetimes = config.sessionLifetimes
        let hours = { (duration: Duration?) in duration.map { String($0.components.seconds / 3600) } ?? "" }
        return ["idleTimeoutHours": hours(lifetimes.idleTimeout), "absoluteLifetimeHours": hours(lifetimes.absoluteLifetime)]
    }
}

extension ConsoleTemplates {
    /// The session lifetimes' section of the settings page.
    static let sessionLifetimes = """
        <h2 id="sessions">Session lifetimes</h2>
        <p class="muted">Flint's <code>flint.sessions</code>: a session (a device's refresh token) is refused at its next
        refresh once unused for the idle timeout, or once the absolute lifetime has passed since its sign-in. Empty: no
        limit, as in Firebase. At least one hour.</p>
        {{#canWrite}}
        <form method="post" action="/console/settings/sessions" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="idleTimeoutHours">Idle timeout, hours (<code>flint.sessions.idleTimeout</code>)</label>
          <input id="idleTimeoutHours" name="idleTimeoutHours" inputmode="numeric" value="{{idleTimeoutHours}}"\(invalid("idleTimeoutHours"))>
          \(error("idleTimeoutHours"))
          <label for="absoluteLifetimeHours">Absolute lifetime, hours (<code>flint.sessions.absoluteLifetime</code>)</label>
          <input id="absoluteLifetimeHours" name="absoluteLifetimeHours" inputmode="numeric" value="{{absoluteLifetimeHours}}"\(invalid("absoluteLifetimeHours"))>
          \(error("absoluteLifetimeHours"))
          <button type="submit">Save session lifetimes</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<dl class="facts">
          <dt>Idle timeout</dt><dd>{{#idleTimeoutHours}}{{idleTimeoutHours}} hours{{/idleTimeoutHours}}{{^idleTimeoutHours}}none{{/idleTimeoutHours}}</dd>
          <dt>Absolute lifetime</dt><dd>{{#absoluteLifetimeHours}}{{absoluteLifetimeHours}} hours{{/absoluteLifetimeHours}}{{^absoluteLifetimeHours}}none{{/absoluteLifetimeHours}}</dd>
        </dl>{{/canWrite}}
        """
}
