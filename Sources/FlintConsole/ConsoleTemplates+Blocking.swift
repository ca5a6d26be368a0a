import FlintCore

/// The settings page's blocking-functions section (``ConsoleBlockingFunctions``): each trigger's function URL and the
/// forwarded credentials (a form, or the values alone for a read-only operator), then the dry run's form and report.
extension ConsoleTemplates {
    static let blockingFunctions = """
        <section id="blocking-functions">
        <h2>Blocking functions</h2>
        <p class="muted">Identity Platform's <code>blockingFunctions</code>: Flint calls each URL (firebase-functions'
        <code>beforeUserCreated</code>, <code>beforeUserSignedIn</code>, <code>beforeEmailSent</code>,
        <code>beforeSmsSent</code>) and a refusal, a failure or no answer within 7 seconds stops the operation.
        An empty URL turns the trigger off.</p>
        {{#canWrite}}
        <form method="post" action="/console/settings/blocking-functions" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          {{#errors.blockingFunctions}}<p class="error" id="blockingFunctions-error" role="alert">{{errors.blockingFunctions}}</p>{{/errors.blockingFunctions}}
          \(ConsoleBlockingFunctions.triggers.map { functionField($0.trigger.rawValue, $0.label) }.joined(separator: "\n  "))
          <p>Give the functions the provider's credentials (<code>forwardInboundCredentials</code>):</p>
          \(forwardCheckbox("forwardIdToken", "ID token")) \(forwardCheckbox("forwardAccessToken", "access token"))
          \(forwardCheckbox("forwardRefreshToken", "refresh token"))
          <button type="submit">Save blocking functions</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<dl class="facts">
          {{#blockingTriggers}}<dt>{{label}} (<code>{{name}}</code>)</dt><dd>{{#uri}}<code>{{uri}}</code>{{/uri}}{{^uri}}none{{/uri}}</dd>{{/blockingTriggers}}
          <dt>Forwarded credentials</dt><dd>ID token {{#forwardIdToken}}yes{{/forwardIdToken}}{{^forwardIdToken}}no{{/forwardIdToken}},
            access token {{#forwardAccessToken}}yes{{/forwardAccessToken}}{{^forwardAccessToken}}no{{/forwardAccessToken}},
            refresh token {{#forwardRefreshToken}}yes{{/forwardRefreshToken}}{{^forwardRefreshToken}}no{{/forwardRefreshToken}}</dd>
        </dl>{{/canWrite}}
        {{#canWrite}}
        <h3 id="dry-run">Dry run</h3>
        <p>Before turning a function on, replay it against the recent sign-ins of the audit log: it is called as it would
        have been (the account as it is now; an <code>event_id</code> starting <code>dry-run-</code>), and nothing it answers
        is applied. One call per account and sign-in method, at most 1,000.</p>
        <form method="post" action="/console/settings/blocking-dry-run#dry-run" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="dryRunUri">Function URL (empty: the trigger's configured function)</label>
          <input id="dryRunUri" name="dryRunUri" value="{{dryRunUri}}" inputmode="url" autocomplete="off"{{#errors.dryRun}} aria-invalid="true" aria-describedby="dryRun-error"{{/errors.dryRun}}>
          <label for="dryRunTrigger">Trigger</label>
          <select id="dryRunTrigger" name="dryRunTrigger">
            {{#dryRunTriggers}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/dryRunTriggers}}
          </select>
          <label for="dryRunDays">Days back (1 to {{dryRunMaxDays}})</label>
          <input id="dryRunDays" name="dryRunDays" inputmode="numeric" value="{{dryRunDays}}">
          {{#errors.dryRun}}<p class="error" id="dryRun-error" role="alert">{{errors.dryRun}}</p>{{/errors.dryRun}}
          <button type="submit">Run dry run</button>
        </form>
        {{/canWrite}}
        {{#dryRun}}
        <div id="dry-run-report">
        <p role="status"><code>{{trigger}}</code> at <code>{{functionUri}}</code>, sign-ins since {{since}}:
          {{signIns}} sign-ins, {{replayed}} calls{{#skipped}}, {{skipped}} accounts deleted since{{/skipped}}{{#notRun}},
          {{notRun}} calls not made after too many failures{{/notRun}}{{#truncated}} (more sign-ins than a dry run reads){{/truncated}}.</p>
        <dl class="tiles" aria-label="Dry run">
          <div><dt>Allowed</dt><dd>{{allowed}}</dd></div><div><dt>Changed</dt><dd>{{changed}}</dd></div>
          <div><dt>Refused</dt><dd>{{refused}}</dd></div><div><dt>Failed</dt><dd>{{failed}}</dd></div>
        </dl>
        {{#hasRows}}<div class="scroll"><table>
          <thead><tr><th scope="col">Outcome</th><th scope="col">User</th><th scope="col">Last sign-in</th><th scope="col">Method</th>
          <th scope="col">Sign-ins</th><th scope="col">The function's message, or what it changes</th></tr></thead>
          <tbody>
          {{#rows}}<tr><td><span class="tag{{#refused}} off{{/refused}}">{{outcome}}</span></td>
            <td><a href="/console/users/{{uid}}">{{uid}}</a></td><td>{{time}}</td><td>{{method}}</td><td>{{signIns}}</td><td>{{what}}</td></tr>{{/rows}}
          </tbody>
        </table></div>{{/hasRows}}
        </div>
        {{/dryRun}}
        </section>
        """

    /// A trigger's URL field.
    private static func functionField(_ name: String, _ label: String) -> String {
        """
        <label for="\(name)">\(label) (<code>\(name)</code>)</label>
          <input id="\(name)" name="\(name)" value="{{\(name)}}" inputmode="url" autocomplete="off" placeholder="https://…">
        """
    }

    /// A forwarded credential's checkbox.
    private static func forwardCheckbox(_ name: String, _ label: String) -> String {
        """
        <label class="check" for="\(name)"><input type="checkbox" id="\(name)" name="\(name)" value="true"{{#\(name)}} checked{{/\(name)}}> \(label)</label>
        """
    }
}
