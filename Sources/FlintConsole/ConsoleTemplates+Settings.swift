/// The settings page's template: one section per group of sign-in settings, each a form (for an operator who may
/// write) or the values alone (for a read-only one), with the config's refusal beside the field it names.
extension ConsoleTemplates {
    static let settings = """
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p class="muted">Each form changes the project config through the admin config API (an update with its
        <code>updateMask</code>): the same checks, and a <code>CONFIG_CHANGED</code> audit event naming you.</p>
        <h2 id="phone">Phone</h2>
        {{#canWrite}}
        <form method="post" action="/console/settings/phone" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          \(checkbox("phoneEnabled", "Phone sign-in enabled"))
          <label for="appVerification">App verification (<code>signIn.phoneNumber.appVerification</code>)</label>
          <select id="appVerification" name="appVerification"{{#errors.appVerification}} aria-invalid="true" aria-describedby="appVerification-error"{{/errors.appVerification}}>
            {{#appVerificationOptions}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/appVerificationOptions}}
          </select>
          {{#errors.appVerification}}<p class="error" id="appVerification-error" role="alert">{{errors.appVerification}}</p>{{/errors.appVerification}}
          <p class="muted">ENFORCE: a code for a real number needs an app proof (APNs push or the web challenge). OFF: none.</p>
          <label for="defaultPhoneRegion">Default phone region (<code>flint.defaultPhoneRegion</code>)</label>
          <input id="defaultPhoneRegion" name="defaultPhoneRegion" value="{{defaultPhoneRegion}}" size="4" maxlength="2" autocapitalize="characters"{{#errors.defaultPhoneRegion}} aria-invalid="true" aria-describedby="defaultPhoneRegion-error"{{/errors.defaultPhoneRegion}}>
          <p class="muted" id="defaultPhoneRegion-hint">Two letters, such as US: the console then finds national numbers such as (650) 555-3434. Empty: international numbers only.</p>
          {{#errors.defaultPhoneRegion}}<p class="error" id="defaultPhoneRegion-error" role="alert">{{errors.defaultPhoneRegion}}</p>{{/errors.defaultPhoneRegion}}
          <button type="submit">Save phone settings</button>
        </form>
        {{/canWrite}}
        <dl class="facts">
          {{^canWrite}}<dt>Phone sign-in</dt><dd>{{#phoneEnabled}}enabled{{/phoneEnabled}}{{^phoneEnabled}}disabled{{/phoneEnabled}}</dd>
          <dt>App verification</dt><dd>{{appVerification}}</dd>
          <dt>Default phone region</dt><dd>{{defaultPhoneRegion}}{{^defaultPhoneRegion}}—{{/defaultPhoneRegion}}</dd>{{/canWrite}}
          <dt>SMS code lifetime</dt><dd>{{smsCodeTTL}} <span class="muted">(server flag <code>--sms-code-ttl</code>)</span></dd>
        </dl>
        <h3>Fictional phone numbers</h3>
        <p>Sign-ins with these numbers send no SMS: the code is the one set here (at most 10 numbers, as Firebase).</p>
        <table>
          <thead><tr><th scope="col">Number</th><th scope="col">Code</th>
          {{#canWrite}}<th scope="col"><span class="visually-hidden">Action</span></th>{{/canWrite}}</tr></thead>
          <tbody>
          {{#numbers}}<tr><td>{{number}}</td><td><code>{{code}}</code></td>
          {{#canWrite}}<td><form method="post" action="/console/settings/test-numbers">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="remove" value="{{number}}">
            <button type="submit" class="danger">Remove</button></form></td>{{/canWrite}}</tr>{{/numbers}}
          {{^numbers}}<tr><td colspan="3">None</td></tr>{{/numbers}}
          </tbody>
        </table>
        {{#canWrite}}
        <form method="post" action="/console/settings/test-numbers" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="number">Phone number (international format)</label>
          <input id="number" name="number" value="{{number}}" required{{#error}} aria-describedby="number-error"{{/error}}>
          <label for="code">Code (6 digits)</label>
          <input id="code" name="code" inputmode="numeric" value="{{code}}" required>
          {{#error}}<p class="error" id="number-error" role="alert">{{error}}</p>{{/error}}
          <button type="submit">Add number</button>
        </form>
        {{/canWrite}}

        <h2 id="email">Email</h2>
        {{#canWrite}}
        <form method="post" action="/console/settings/email" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          \(checkbox("emailEnabled", "Email sign-in enabled (<code>signIn.email.enabled</code>)"))
          \(checkbox("passwordRequired", "Password required: no email link sign-in (<code>signIn.email.passwordRequired</code>)"))
          \(checkbox("emailPrivacy", "Email enumeration protection: no answer tells whether an address has an account (<code>emailPrivacyConfig.enableImprovedEmailPrivacy</code>)"))
          <button type="submit">Save email settings</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<dl class="facts">
          <dt>Email sign-in</dt><dd>{{#emailEnabled}}enabled{{/emailEnabled}}{{^emailEnabled}}disabled{{/emailEnabled}}</dd>
          <dt>Password required</dt><dd>{{#passwordRequired}}yes (no email link sign-in){{/passwordRequired}}{{^passwordRequired}}no (email links sign in too){{/passwordRequired}}</dd>
          <dt>Email enumeration protection</dt><dd>{{#emailPrivacy}}on{{/emailPrivacy}}{{^emailPrivacy}}off{{/emailPrivacy}}</dd>
        </dl>{{/canWrite}}
        <h2 id="anonymous">Anonymous</h2>
        {{#canWrite}}
        <form method="post" action="/console/settings/anonymous" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          \(checkbox("anonymousEnabled", "Anonymous sign-in enabled"))
          <button type="submit">Save anonymous settings</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<dl class="facts"><dt>Anonymous sign-in</dt>
          <dd>{{#anonymousEnabled}}enabled{{/anonymousEnabled}}{{^anonymousEnabled}}disabled{{/anonymousEnabled}}</dd></dl>{{/canWrite}}
        \(providerGrid)
        \(providers)
        \(policies)
        \(sessionLifetimes)
        <h2 id="mfa">Multi-factor authentication</h2>
        {{#canWrite}}
        <form method="post" action="/console/settings/mfa" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="mfaState">State (<code>mfa.state</code>)</label>
          <select id="mfaState" name="mfaState"{{#errors.mfaState}} aria-invalid="true" aria-describedby="mfaState-error"{{/errors.mfaState}}>
            {{#mfaStateOptions}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/mfaStateOptions}}
          </select>
          {{#errors.mfaState}}<p class="error" id="mfaState-error" role="alert">{{errors.mfaState}}</p>{{/errors.mfaState}}
          \(checkbox("smsFactor", "SMS second factors (<code>PHONE_SMS</code>)"))
          \(checkbox("totpFactor", "TOTP second factors"))
          <label for="adjacentIntervals">TOTP adjacent intervals (0 to 10)</label>
          <input id="adjacentIntervals" name="adjacentIntervals" inputmode="numeric" value="{{adjacentIntervals}}"
            {{#errors.adjacentIntervals}} aria-invalid="true" aria-describedby="adjacentIntervals-error"{{/errors.adjacentIntervals}}>
          {{#errors.adjacentIntervals}}<p class="error" id="adjacentIntervals-error" role="alert">{{errors.adjacentIntervals}}</p>{{/errors.adjacentIntervals}}
          <button type="submit">Save MFA settings</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<dl class="facts">
          <dt>State</dt><dd>{{mfaState}}</dd>
          <dt>SMS second factors</dt><dd>{{#smsFactor}}on{{/smsFactor}}{{^smsFactor}}off{{/smsFactor}}</dd>
          <dt>TOTP second factors</dt><dd>{{#totpFactor}}on{{/totpFactor}}{{^totpFactor}}off{{/totpFactor}}</dd>
          <dt>TOTP adjacent intervals</dt><dd>{{adjacentIntervals}}</dd>
        </dl>{{/canWrite}}
        \(mfaFirstFactors)
        <h2 id="domains">Authorized domains</h2>
        <p>Continue URLs and OAuth redirects may point only at these hosts.</p>
        \(hostList("domains", action: "/console/settings/domains", field: "domain", label: "Domain", add: "Add domain"))
        <h2 id="app-links">App links</h2>
        {{#canWrite}}
        <form method="post" action="/console/settings/app-links" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="mobileLinksDomain">Mobile links domain (<code>mobileLinksConfig.domain</code>)</label>
          <select id="mobileLinksDomain" name="mobileLinksDomain"{{#errors.mobileLinksDomain}} aria-invalid="true" aria-describedby="mobileLinksDomain-error"{{/errors.mobileLinksDomain}}>
            {{#mobileLinksOptions}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/mobileLinksOptions}}
          </select>
          {{#errors.mobileLinksDomain}}<p class="error" id="mobileLinksDomain-error" role="alert">{{errors.mobileLinksDomain}}</p>{{/errors.mobileLinksDomain}}
          <button type="submit">Save app links</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<dl class="facts"><dt>Mobile links domain</dt><dd>{{mobileLinksDomain}}</dd></dl>{{/canWrite}}
        <h3 id="ios-apps">iOS apps</h3>
        <p>Served as <code>/.well-known/apple-app-site-association</code> (<code>flint.appLinks.apple</code>): these apps open action links.</p>
        {{#canWrite}}
        <form method="post" action="/console/settings/ios-apps" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="teamId">Apple team ID (10 characters)</label>
          <input id="teamId" name="teamId" value="{{teamId}}" autocapitalize="characters"{{#errors.teamId}} aria-invalid="true" aria-describedby="teamId-error"{{/errors.teamId}}>
          {{#errors.teamId}}<p class="error" id="teamId-error" role="alert">{{errors.teamId}}</p>{{/errors.teamId}}
          <label for="bundleIds">Bundle IDs (one a line)</label>
          <textarea id="bundleIds" name="bundleIds" rows="3"{{#errors.bundleIds}} aria-invalid="true" aria-describedby="bundleIds-error"{{/errors.bundleIds}}>
        {{bundleIds}}</textarea>
          {{#errors.bundleIds}}<p class="error" id="bundleIds-error" role="alert">{{errors.bundleIds}}</p>{{/errors.bundleIds}}
          <p class="muted">Both empty: no iOS app.</p>
          <button type="submit">Save iOS apps</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<p>{{#appleAppIDs}}<code>{{.}}</code> {{/appleAppIDs}}{{^appleAppIDs}}None{{/appleAppIDs}}</p>{{/canWrite}}
        <h3 id="android-apps">Android apps</h3>
        <p>Served as <code>/.well-known/assetlinks.json</code> (<code>flint.appLinks.android</code>).</p>
        <table>
          <thead><tr><th scope="col">Package</th><th scope="col">SHA-256 certificate fingerprints</th>
          {{#canWrite}}<th scope="col"><span class="visually-hidden">Action</span></th>{{/canWrite}}</tr></thead>
          <tbody>
          {{#androidApps}}<tr><td><code>{{packageName}}</code></td><td><code>{{fingerprints}}</code></td>
          {{#canWrite}}<td><form method="post" action="/console/settings/android-apps">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="remove" value="{{packageName}}">
            <button type="submit" class="danger" aria-label="Remove {{packageName}}">Remove</button></form></td>{{/canWrite}}</tr>{{/androidApps}}
          {{^androidApps}}<tr><td colspan="3">None</td></tr>{{/androidApps}}
          </tbody>
        </table>
        {{#canWrite}}
        <form method="post" action="/console/settings/android-apps" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="packageName">Package name</label>
          <input id="packageName" name="packageName" value="{{packageName}}" required{{#errors.packageName}} aria-invalid="true" aria-describedby="packageName-error"{{/errors.packageName}}>
          {{#errors.packageName}}<p class="error" id="packageName-error" role="alert">{{errors.packageName}}</p>{{/errors.packageName}}
          <label for="fingerprints">SHA-256 certificate fingerprints (AA:BB:…, one a line)</label>
          <textarea id="fingerprints" name="fingerprints" rows="3"{{#errors.fingerprints}} aria-invalid="true" aria-describedby="fingerprints-error"{{/errors.fingerprints}}>
        {{fingerprints}}</textarea>
          {{#errors.fingerprints}}<p class="error" id="fingerprints-error" role="alert">{{errors.fingerprints}}</p>{{/errors.fingerprints}}
          <p class="muted">A package already listed gets these fingerprints instead of its own.</p>
          <button type="submit">Add Android app</button>
        </form>
        {{/canWrite}}
        <h3 id="link-domains">Link domains</h3>
        <p>Other hosts that serve Flint's action page (<code>flint.linkDomains</code>); a request's <code>linkDomain</code> picks one.</p>
        \(hostList("linkDomains", action: "/console/settings/link-domains", field: "linkDomain", label: "Link domain", add: "Add link domain"))
        \(blockingFunctions)
        """

    /// The hosts the list `list` holds, each with its remove form (`remove`), then a form adding one (`field`), for
    /// operators who may write.
    private static func hostList(_ list: String, action: String, field: String, label: String, add: String) -> String {
        """
        <table>
          <thead><tr><th scope="col">Domain</th>
          {{#canWrite}}<th scope="col"><span class="visually-hidden">Action</span></th>{{/canWrite}}</tr></thead>
          <tbody>
          {{#\(list)}}<tr><td>{{domain}}</td>
          {{#canWrite}}<td><form method="post" action="\(action)">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="remove" value="{{domain}}">
            <button type="submit" class="danger" aria-label="Remove {{domain}}">Remove</button></form></td>{{/canWrite}}</tr>{{/\(list)}}
          {{^\(list)}}<tr><td colspan="2">None</td></tr>{{/\(list)}}
          </tbody>
        </table>
        {{#canWrite}}
        <form method="post" action="\(action)" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="\(field)">\(label)</label>
          <input id="\(field)" name="\(field)" value="{{\(field)}}" required{{#errors.\(field)}} aria-invalid="true" aria-describedby="\(field)-error"{{/errors.\(field)}}>
          {{#errors.\(field)}}<p class="error" id="\(field)-error" role="alert">{{errors.\(field)}}</p>{{/errors.\(field)}}
          <button type="submit">\(add)</button>
        </form>
        {{/canWrite}}
        """
    }

    /// A checkbox bound to the boolean `name` (`value="true"` when ticked), with the config's refusal of it under it.
    private static func checkbox(_ name: String, _ label: String) -> String {
        """
        <label class="check" for="\(name)"><input type="checkbox" id="\(name)" name="\(name)" value="true"
            {{#\(name)}}checked{{/\(name)}}{{#errors.\(name)}} aria-invalid="true" aria-describedby="\(name)-error"{{/errors.\(name)}}>
            \(label)</label>
          {{#errors.\(name)}}<p class="error" id="\(name)-error" role="alert">{{errors.\(name)}}</p>{{/errors.\(name)}}
        """
    }
}
