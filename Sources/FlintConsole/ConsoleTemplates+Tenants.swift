/// The tenants pages' templates: the picker (``tenants``: the project, a search by ID prefix, a page of tenants, the
/// new tenant's form) and a tenant's page (``tenant``: its links, its settings form, its deletion).
extension ConsoleTemplates {
    static let tenants = """
        {{#limited}}<p class="muted">Your account may use only the tenants listed here.</p>{{/limited}}
        <form method="get" action="/console/tenants" class="search" role="search">
          <label for="tq">Tenant ID or its beginning</label>
          <input id="tq" name="q" type="search" value="{{q}}" aria-describedby="tq-hint">
          <p class="muted hint" id="tq-hint">A tenant's ID starts with its display name in lower case (acme-corp-x7k2q).</p>
          <button type="submit">Find</button>
        </form>
        <div class="scroll"><table class="cards">
          <caption>{{#q}}Tenants whose ID starts with “{{q}}”{{/q}}{{^q}}Tenants in ID order{{/q}}</caption>
          <thead><tr><th scope="col">Tenant</th><th scope="col">Display name</th><th scope="col">Sign-in methods</th><th scope="col">Settings</th></tr></thead>
          <tbody>
          {{#project}}<tr><td data-label="Tenant"><a href="{{href}}">Project (default tenant)</a></td><td data-label="Display name">—</td>
          <td data-label="Sign-in methods"><a href="/console/settings">the project's settings</a></td><td data-label="Settings">—</td></tr>{{/project}}
          {{#rows}}<tr><td data-label="Tenant"><a href="{{open}}"><code>{{id}}</code></a>{{#disabled}} <span class="tag off">sign-in disabled</span>{{/disabled}}
          {{#missing}} <span class="tag off">deleted</span>{{/missing}}</td>
          <td data-label="Display name">{{displayName}}</td><td data-label="Sign-in methods">{{methods}}</td>
          <td data-label="Settings">{{^missing}}<a href="{{edit}}" aria-label="Settings of {{id}}">Settings</a>{{/missing}}</td></tr>{{/rows}}
          {{^rows}}<tr><td colspan="4">No tenant{{#q}} matches{{/q}}.</td></tr>{{/rows}}
          </tbody>
        </table></div>
        {{#nextPage}}<p><a href="{{nextPage}}" rel="next">Next tenants</a></p>{{/nextPage}}
        {{#canCreate}}
        <form method="post" action="/console/tenants" class="card" aria-labelledby="new-tenant-h">
          <h2 id="new-tenant-h">New tenant</h2>
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="displayName">Display name (4 to 20 letters, digits and hyphens, starting with a letter)</label>
          <input id="displayName" name="displayName" value="{{displayName}}" required{{#createError}} aria-invalid="true" aria-describedby="displayName-error"{{/createError}}>
          {{#createError}}<p class="error" role="alert" id="displayName-error">{{createError}}</p>{{/createError}}
          <label class="check"><input type="checkbox" name="allowPasswordSignup"> Email and password</label>
          <label class="check"><input type="checkbox" name="enableEmailLinkSignin"> Email link</label>
          <label class="check"><input type="checkbox" name="enableAnonymousUser"> Anonymous</label>
          <button type="submit">Create</button>
        </form>
        {{/canCreate}}
        """

    static let tenant = """
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#generalError}}<p class="error" role="alert">{{generalError}}</p>{{/generalError}}
        <p><a href="{{users}}">Users of this tenant</a> · <a href="{{transfers}}">Import and export</a> · <a href="{{audit}}">Security events</a>
        · <a href="{{providers}}">Identity providers (OpenID Connect, SAML)</a> · <a href="/console/tenants">Tenants</a></p>
        <form method="post" action="/console/tenants/{{id}}" class="card" aria-labelledby="tenant-h">
          <h2 id="tenant-h">Sign-in settings</h2>
          <input type="hidden" name="csrf" value="{{csrf}}">
          <fieldset{{^canWrite}} disabled{{/canWrite}}><legend class="visually-hidden">Tenant {{id}}</legend>
          <label for="displayName">Display name</label>
          <input id="displayName" name="displayName" value="{{displayName}}" required{{#displayNameError}} aria-invalid="true" aria-describedby="displayName-error"{{/displayNameError}}>
          {{#displayNameError}}<p class="error" role="alert" id="displayName-error">{{displayNameError}}</p>{{/displayNameError}}
          <h3>Sign-in methods</h3>
          <label class="check"><input type="checkbox" name="allowPasswordSignup"{{#allowPasswordSignup}} checked{{/allowPasswordSignup}}> Email and password</label>
          <label class="check"><input type="checkbox" name="enableEmailLinkSignin"{{#enableEmailLinkSignin}} checked{{/enableEmailLinkSignin}}> Email link (with email and password on)</label>
          <label class="check"><input type="checkbox" name="enableAnonymousUser"{{#enableAnonymousUser}} checked{{/enableAnonymousUser}}> Anonymous</label>
          <label class="check"><input type="checkbox" name="disableAuth"{{#disableAuth}} checked{{/disableAuth}}> Refuse every sign-in of this tenant</label>
          <h3>Second factors</h3>
          <label for="mfaState">State</label>
          <select id="mfaState" name="mfaState"{{#mfaError}} aria-invalid="true" aria-describedby="mfa-error"{{/mfaError}}>{{#mfaStates}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/mfaStates}}</select>
          <label class="check"><input type="checkbox" name="mfaSMS"{{#mfaSMS}} checked{{/mfaSMS}}> SMS</label>
          <label class="check"><input type="checkbox" name="mfaTOTP"{{#mfaTOTP}} checked{{/mfaTOTP}}> Authenticator app (TOTP)</label>
          {{#mfaError}}<p class="error" role="alert" id="mfa-error">{{mfaError}}</p>{{/mfaError}}
          <label for="testPhoneNumbers">Test phone numbers (one “+number code” a line)</label>
          <textarea id="testPhoneNumbers" name="testPhoneNumbers" rows="4"{{#testPhoneNumbersError}} aria-invalid="true" aria-describedby="tpn-error"{{/testPhoneNumbersError}}>{{testPhoneNumbers}}</textarea>
          {{#testPhoneNumbersError}}<p class="error" role="alert" id="tpn-error">{{testPhoneNumbersError}}</p>{{/testPhoneNumbersError}}
          </fieldset>
          {{#canWrite}}<button type="submit">Save</button>{{/canWrite}}
        </form>
        {{#canDelete}}
        <form method="post" action="/console/tenants/{{id}}/delete" class="card" aria-labelledby="delete-h">
          <h2 id="delete-h">Delete this tenant</h2>
          <input type="hidden" name="csrf" value="{{csrf}}">
          <p>Its users, their sessions and codes are deleted with it, and cannot be restored.</p>
          {{#deleteError}}<p class="error" role="alert">{{deleteError}}</p>{{/deleteError}}
          <label class="check"><input type="checkbox" name="confirmed" value="yes"> Delete {{id}} and its users</label>
          <button type="submit" class="danger">Delete</button>
        </form>
        {{/canDelete}}
        """
}
