import FlintServer
import Mustache

/// The console's pages as Mustache templates (Swift constants, so the binary carries them), registered once in a
/// library by name.
enum ConsoleTemplates {
    /// Every template by the name pages render it with.
    static func library() throws -> MustacheLibrary {
        var library = MustacheLibrary()
        let all: [String: String] = [
            "layout": layout, "signIn": signIn, "totp": totp, "setup": setup, "message": message, "users": users, "user": user,
            "confirm": confirm, "deliveries": deliveries, "security": security, "keys": keys,
            "settings": settings, "dashboard": dashboard, "chart": chart, "smsBudget": smsBudget, "outbox": outbox, "templates": templates,
            "templatePreview": templatePreview, "webhooks": webhooks, "bulkConfirm": bulkConfirm, "bulkDone": bulkDone,
            "newUser": newUser, "providerTest": providerTest, "providerTestHop": providerTestHop,
            "transfers": transfers, "importStatus": importStatus, "importJob": importJob,
            "identityProviders": identityProviders, "identityProvider": identityProvider, "identityProviderDelete": identityProviderDelete,
            "tenants": tenants, "tenant": tenant,
        ]
        for (name, text) in all { try library.register(text, named: name) }
        return library
    }

    static let users = """
        {{#canWrite}}<p><a href="/console/new-user">Add a user</a></p>{{/canWrite}}
        <p><a href="/console/import">Import and export</a></p>
        <form method="get" action="/console/users" class="search" role="search">
          <label for="q">Email, phone number, user ID prefix or display name</label>
          <input id="q" name="q" type="search" value="{{q}}" aria-describedby="q-hint">
          <p class="muted hint" id="q-hint">{{#region}}Phone numbers: international (+44 7700 900123) or as written in
          {{region}} (the project's default phone region).{{/region}}{{^region}}Phone numbers in international format
          (+1 650 555 3434); set a default phone region in Settings to search national numbers.{{/region}}</p>
          {{#kept}}<input type="hidden" name="{{name}}" value="{{value}}">{{/kept}}
          <button type="submit">Search</button>
        </form>
        <form method="get" action="/console/users" class="search filters" aria-label="Order and filters">
          {{#q}}<input type="hidden" name="q" value="{{q}}">{{/q}}
          <div class="field"><label for="sort">Order by</label><select id="sort" name="sort">
          {{#orders}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/orders}}</select></div>
          <div class="field"><label for="dir">Direction</label><select id="dir" name="dir">
          {{#directions}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/directions}}</select></div>
          <div class="field"><label for="size">Per page</label><select id="size" name="size">
          {{#sizes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/sizes}}</select></div>
          <div class="field"><label for="provider">Provider</label><select id="provider" name="provider">
          {{#providerChoices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/providerChoices}}</select></div>
          <div class="field"><label for="state">State</label><select id="state" name="state">
          {{#states}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/states}}</select></div>
          <div class="field"><label for="verified">Email</label><select id="verified" name="verified">
          {{#verifiedChoices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/verifiedChoices}}</select></div>
          <div class="field"><label for="mfa">Second factor</label><select id="mfa" name="mfa">
          {{#mfaChoices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/mfaChoices}}</select></div>
          <div class="field"><label for="from">Created from (UTC)</label><input id="from" name="from" type="date" value="{{from}}"></div>
          <div class="field"><label for="to">Created until (UTC)</label><input id="to" name="to" type="date" value="{{to}}"></div>
          <button type="submit">Apply</button> <a href="/console/users">Reset</a>
        </form>
        {{#scanStopped}}<p class="notice" role="status">{{scanStopped}}</p>{{/scanStopped}}
        {{#canWrite}}<form method="post" action="/console/users/bulk" id="bulk">
        <input type="hidden" name="csrf" value="{{csrf}}">{{/canWrite}}
        <table class="cards">
          <caption>{{caption}}</caption>
          <thead><tr>{{#canWrite}}<th scope="col"><span class="visually-hidden">Select</span></th>{{/canWrite}}
          {{#sortID}}<th scope="col"{{#ariaSort}} aria-sort="{{ariaSort}}"{{/ariaSort}}><a href="{{href}}">{{label}}</a></th>{{/sortID}}
          {{#sortEmail}}<th scope="col"{{#ariaSort}} aria-sort="{{ariaSort}}"{{/ariaSort}}><a href="{{href}}">{{label}}</a></th>{{/sortEmail}}
          <th scope="col">Phone</th><th scope="col">Name</th><th scope="col">Providers</th>
          {{#sortCreated}}<th scope="col"{{#ariaSort}} aria-sort="{{ariaSort}}"{{/ariaSort}}><a href="{{href}}">{{label}}</a></th>{{/sortCreated}}
          {{#sortSignIn}}<th scope="col"{{#ariaSort}} aria-sort="{{ariaSort}}"{{/ariaSort}}><a href="{{href}}">{{label}}</a></th>{{/sortSignIn}}
          <th scope="col">State</th></tr></thead>
          <tbody>
          {{#users}}
          <tr>{{#canWrite}}<td data-label="Select"><input type="checkbox" name="u:{{localId}}" value="on" aria-label="Select {{localId}}"></td>{{/canWrite}}
          <td data-label="User ID"><a href="/console/users/{{localId}}">{{localId}}</a></td><td data-label="Email">{{email}}</td>
          <td data-label="Phone">{{phone}}</td><td data-label="Name">{{name}}</td>
          <td data-label="Providers"><ul class="providers">{{#providers}}<li>{{{icon}}} {{label}}</li>{{/providers}}</ul></td>
          <td data-label="Created">{{#created}}<time datetime="{{full}}" title="{{full}}">{{short}}</time>{{/created}}</td>
          <td data-label="Last sign-in">{{#lastSignIn}}<time datetime="{{full}}" title="{{full}}">{{short}}</time>{{/lastSignIn}}{{^lastSignIn}}never{{/lastSignIn}}</td>
          <td data-label="State">{{#disabled}}<span class="tag off">disabled</span>{{/disabled}}{{^disabled}}<span class="tag">enabled</span>{{/disabled}}
          {{#lockedUntil}}<span class="tag off" title="Locked until {{lockedUntil}}">locked</span>{{/lockedUntil}}</td></tr>
          {{/users}}
          {{^users}}<tr><td colspan="9">No account matches.</td></tr>{{/users}}
          </tbody>
        </table>
        {{#canWrite}}<div class="actions"><label for="bulk-action">With the selected accounts</label>
        <select id="bulk-action" name="action"><option value="disable">Disable</option><option value="enable">Enable</option>
        <option value="revoke">Revoke every session</option><option value="delete">Delete</option></select>
        <button type="submit">Review</button></div>
        </form>{{/canWrite}}
        {{#next}}<p><a href="{{next}}" rel="next">Next page</a></p>{{/next}}
        """

    static let user = """
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <dl class="facts">
          <dt>User ID</dt><dd><code>{{localId}}</code></dd>
          <dt>Email</dt><dd>{{email}}{{^email}}—{{/email}}{{#emailVerified}} <span class="tag">verified</span>{{/emailVerified}}</dd>
          <dt>Phone</dt><dd>{{phone}}{{^phone}}—{{/phone}}</dd>
          <dt>Display name</dt><dd>{{name}}{{^name}}—{{/name}}</dd>
          <dt>Created</dt><dd>{{created}}</dd>
          <dt>Last sign-in</dt><dd>{{lastSignIn}}</dd>
          <dt>Last refresh</dt><dd>{{lastRefresh}}</dd>
          <dt>State</dt><dd>{{#disabled}}<span class="tag off">disabled</span>{{/disabled}}{{^disabled}}enabled{{/disabled}}
          {{#lockedUntil}}<span class="tag off">Locked until {{lockedUntil}}</span> after failed sign-ins{{/lockedUntil}}</dd>
        </dl>
        <h2>Providers</h2>
        <ul>{{#providers}}<li>{{providerId}}: {{rawId}}</li>{{/providers}}{{^providers}}<li>None</li>{{/providers}}</ul>
        <h2>Second factors</h2>
        <table class="cards">
          <thead><tr><th scope="col">Kind</th><th scope="col">Name</th><th scope="col">Phone</th><th scope="col">Enrolled</th>
          {{#canWrite}}<th scope="col"><span class="visually-hidden">Action</span></th>{{/canWrite}}</tr></thead>
          <tbody>
          {{#factors}}
          <tr><td data-label="Kind">{{kind}}</td><td data-label="Name">{{name}}</td><td data-label="Phone">{{phone}}</td><td data-label="Enrolled">{{enrolled}}</td>
          {{#canWrite}}<td><form method="post" action="/console/users/{{localId}}/actions">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="removeFactor">
            <input type="hidden" name="factor" value="{{id}}"><button type="submit" class="danger">Remove</button></form></td>{{/canWrite}}</tr>
          {{/factors}}
          {{^factors}}<tr><td colspan="5">None</td></tr>{{/factors}}
          </tbody>
        </table>
        <h2>Passkeys</h2>
        <table class="cards">
          <thead><tr><th scope="col">Name</th><th scope="col">Credential ID</th>
          {{#canWrite}}<th scope="col"><span class="visually-hidden">Action</span></th>{{/canWrite}}</tr></thead>
          <tbody>
          {{#passkeys}}
          <tr><td data-label="Name">{{name}}</td><td data-label="Credential ID"><code>{{id}}</code></td>
          {{#canWrite}}<td><form method="post" action="/console/users/{{localId}}/actions">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="removePasskey">
            <input type="hidden" name="passkey" value="{{id}}"><button type="submit" class="danger">Remove</button></form></td>{{/canWrite}}</tr>
          {{/passkeys}}
          {{^passkeys}}<tr><td colspan="3">None</td></tr>{{/passkeys}}
          </tbody>
        </table>
        <h2>Sessions</h2>
        <table class="cards">
          <thead><tr><th scope="col">Device</th><th scope="col">First address</th><th scope="col">Last address</th>
          <th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Method</th>
          {{#canWrite}}<th scope="col"><span class="visually-hidden">Action</span></th>{{/canWrite}}</tr></thead>
          <tbody>
          {{#sessions}}
          <tr><td data-label="Device">{{device}}</td><td data-label="First address">{{firstIp}}</td><td data-label="Last address">{{lastIp}}</td>
          <td data-label="Created">{{created}}</td><td data-label="Last used">{{lastUsed}}</td><td data-label="Method">{{method}}</td>
          {{#canWrite}}<td><form method="post" action="/console/users/{{localId}}/actions">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="endSession">
            <input type="hidden" name="session" value="{{id}}"><button type="submit" class="danger">End session</button></form></td>{{/canWrite}}</tr>
          {{/sessions}}
          {{^sessions}}<tr><td colspan="7">None</td></tr>{{/sessions}}
          </tbody>
        </table>
        <h2>Custom claims</h2>
        {{#claims}}<pre class="claims">{{claims}}</pre>{{/claims}}{{^claims}}<p>None</p>{{/claims}}
        {{#canWrite}}
        <form method="post" action="/console/users/{{localId}}/actions" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="claims">
          <label for="claims">New custom claims (a JSON object, at most 1000 characters; empty removes them)</label>
          <textarea id="claims" name="claims" rows="4">{{draft}}</textarea>
          {{#claimsError}}<p class="error" role="alert">{{claimsError}}</p>{{/claimsError}}
          <button type="submit">Review claims</button>
        </form>
        <h2>Actions</h2>
        <div class="actions">
        {{#actions}}
          <form method="post" action="/console/users/{{localId}}/actions">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="{{action}}">
            <button type="submit"{{#danger}} class="danger"{{/danger}}>{{label}}</button>
          </form>
        {{/actions}}
        </div>
        {{/canWrite}}
        <p><a href="/console/security?uid={{localId}}">Security events of this account</a></p>
        """

    static let confirm = """
        <div class="card">
          <p>{{question}}</p>
          {{#claims}}<pre class="claims">{{claims}}</pre>{{/claims}}
          <form method="post" action="/console/users/{{localId}}/actions">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="{{action}}">
            <input type="hidden" name="confirmed" value="yes">
            {{#claims}}<input type="hidden" name="claims" value="{{claims}}">{{/claims}}
            {{#factor}}<input type="hidden" name="factor" value="{{factor}}">{{/factor}}
            {{#passkey}}<input type="hidden" name="passkey" value="{{passkey}}">{{/passkey}}
            {{#session}}<input type="hidden" name="session" value="{{session}}">{{/session}}
            <button type="submit" class="danger">Confirm</button>
            <a href="/console/users/{{localId}}">Cancel</a>
          </form>
        </div>
        """

    static let deliveries = """
        <form method="get" action="/console/deliveries" class="search" role="search">
          <div class="field"><label for="channel">Channel</label>
          <select id="channel" name="channel"><option value="">Any</option>
          {{#channels}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/channels}}</select></div>
          <div class="field"><label for="status">Status</label>
          <select id="status" name="status"><option value="">Any</option>
          {{#statuses}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/statuses}}</select></div>
          <div class="field"><label for="to">Recipient (number or email)</label>
          <input id="to" name="to" value="{{to}}" size="28"></div>
          <button type="submit">Filter</button>
        </form>
        <p>{{explanation}}</p>
        <table class="cards">
          <thead><tr><th scope="col">Created</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Status</th>
          <th scope="col">Attempts</th><th scope="col">Provider answer</th>{{#devMode}}<th scope="col">Code or link</th>{{/devMode}}</tr></thead>
          <tbody>
          {{#messages}}
          <tr><td data-label="Created">{{created}}</td><td data-label="Channel">{{channel}}</td><td data-label="To">{{to}}</td>
          <td data-label="Status">{{status}}</td><td data-label="Attempts">{{attempts}}</td><td data-label="Provider answer">{{detail}}</td>
          {{#devMode}}<td data-label="Code or link"><code>{{code}}</code> {{#link}}<a href="{{link}}">link</a>{{/link}}</td>{{/devMode}}</tr>
          {{/messages}}
          {{^messages}}<tr><td colspan="7">{{#filtered}}No message matches these filters.{{/filtered}}{{^filtered}}Nothing was sent.{{/filtered}}</td></tr>{{/messages}}
          </tbody>
        </table>
        {{#next}}<p><a href="{{next}}" rel="next">Older messages</a></p>{{/next}}
        """

    static let security = """
        <form method="get" action="/console/security" class="search">
          <div class="field"><label for="kind">Kind</label>
          <select id="kind" name="kind"><option value="">Any</option>
          {{#kinds}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/kinds}}</select></div>
          <div class="field"><label for="uid">User ID</label>
          <input id="uid" name="uid" value="{{uid}}" size="32"></div>
          <button type="submit">Filter</button>
        </form>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <table class="cards">
          <thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">User</th><th scope="col">Actor</th>
          <th scope="col">IP</th><th scope="col">Detail</th></tr></thead>
          <tbody>
          {{#events}}
          <tr><td data-label="When">{{at}}</td><td data-label="Kind">{{kind}}</td>
          <td data-label="User">{{#account}}<a href="/console/users/{{account}}">{{account}}</a>{{/account}}</td><td data-label="Actor">{{actor}}</td>
          <td data-label="IP">{{ip}}</td><td data-label="Detail"><code>{{detail}}</code></td></tr>
          {{/events}}
          {{^events}}<tr><td colspan="6">No event.</td></tr>{{/events}}
          </tbody>
        </table>
        {{#next}}<p><a href="{{next}}" rel="next">Older events</a></p>{{/next}}
        """

    static let keys = """
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p>ID tokens and session cookies are signed with the active key. A rotation schedules a new key: published at
        once, it starts signing once the verifiers' cached key sets have expired; a retired key stays published for 14
        days and an hour, until the session cookies it signed have expired. A leaked key is revoked with
        <code>flint keys revoke KID</code>.</p>
        <table class="cards">
          <thead><tr><th scope="col">Key ID</th><th scope="col">Created</th><th scope="col">Signs from</th><th scope="col">Retired</th><th scope="col">State</th></tr></thead>
          <tbody>
          {{#keys}}<tr><td data-label="Key ID"><code>{{kid}}</code></td><td data-label="Created">{{created}}</td>
          <td data-label="Signs from">{{activates}}</td><td data-label="Retired">{{retired}}</td><td data-label="State">{{state}}</td></tr>{{/keys}}
          </tbody>
        </table>
        {{#canWrite}}
        <form method="post" action="/console/keys" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          {{#confirming}}<p>Rotate now? A new key is published at once and signs new tokens on every node from the
          time shown after the rotation.</p><input type="hidden" name="confirmed" value="yes">
          <button type="submit" class="danger">Confirm</button> <a href="/console/keys">Cancel</a>{{/confirming}}
          {{^confirming}}<button type="submit">Rotate the signing key</button>{{/confirming}}
        </form>
        {{/canWrite}}
        """

    static let outbox = """
        <p>The dev outbox's codes and links that can still be used (unspent, unexpired), newest first: nothing is sent in
        dev mode. Reload the page after a new send.</p>
        <h2>SMS codes</h2>
        <table class="cards">
          <thead><tr><th scope="col">To</th><th scope="col">Code</th><th scope="col">Sent</th></tr></thead>
          <tbody>
          {{#codes}}<tr><td data-label="To">{{to}}</td><td data-label="Code"><code class="code">{{code}}</code></td><td data-label="Sent">{{created}}</td></tr>{{/codes}}
          {{^codes}}<tr><td colspan="3">No code waiting.</td></tr>{{/codes}}
          </tbody>
        </table>
        <h2>Email links</h2>
        <table class="cards">
          <thead><tr><th scope="col">To</th><th scope="col">Kind</th><th scope="col">Link</th><th scope="col">Code</th>
          <th scope="col">Sent</th></tr></thead>
          <tbody>
          {{#links}}<tr><td data-label="To">{{to}}</td><td data-label="Kind">{{kind}}</td><td data-label="Link"><a href="{{link}}">{{subject}}</a></td>
          <td data-label="Code"><code>{{code}}</code></td><td data-label="Sent">{{created}}</td></tr>{{/links}}
          {{^links}}<tr><td colspan="5">No link waiting.</td></tr>{{/links}}
          </tbody>
        </table>
        """
}
