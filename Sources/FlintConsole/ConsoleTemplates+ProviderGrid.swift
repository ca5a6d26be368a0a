/// The settings page's sign-in methods grid (``ConsoleProviderGrid``), its second-factor form, and the pages of a
/// provider's test sign-in.
extension ConsoleTemplates {
    static let providerGrid = """
        <section id="sign-in-methods" aria-labelledby="sign-in-methods-title">
        <h2 id="sign-in-methods-title">Sign-in methods</h2>
        <p class="muted">Every way of signing in Flint serves. A test sign-in runs the provider's real web sign-in through
        this project's handler, as an app's <code>signInWithRedirect</code> does, and shows what the provider answered:
        it creates, links and signs in no account.</p>
        {{#gridError}}<p class="error" role="alert">{{gridError}}</p>{{/gridError}}
        <table class="cards grid">
          <caption>Sign-in methods, their credentials and second factors</caption>
          <thead><tr><th scope="col">Method</th><th scope="col">State</th><th scope="col">Credentials</th>
          <th scope="col">Second factor</th>{{#canWrite}}<th scope="col">Actions</th>{{/canWrite}}</tr></thead>
          <tbody>
          {{#grid}}<tr>
            <td data-label="Method"><span class="method">{{{icon}}} <strong>{{#page}}<a href="{{page}}">{{name}}</a>{{/page}}{{^page}}{{name}}{{/page}}</strong></span> <span class="muted">{{id}}</span></td>
            <td data-label="State">{{#enabled}}<span class="tag">on</span>{{/enabled}}{{^enabled}}<span class="tag off">{{#configured}}off{{/configured}}{{^configured}}not configured{{/configured}}</span>{{/enabled}}</td>
            <td data-label="Credentials">{{credentials}}</td>
            <td data-label="Second factor">{{mfa}}</td>
            {{#canWrite}}<td data-label="Actions"><div class="row-actions">
              <form method="post" action="/console/settings/provider-state">
                <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="providerId" value="{{id}}">
                <input type="hidden" name="enabled" value="{{^enabled}}true{{/enabled}}{{#enabled}}false{{/enabled}}">
                <button type="submit"{{#enabled}} class="quiet"{{/enabled}}>{{#enabled}}Turn off{{/enabled}}{{^enabled}}Turn on{{/enabled}}<span class="visually-hidden"> {{name}}</span></button>
              </form>
              {{#edit}}<a href="{{edit}}">Edit<span class="visually-hidden"> {{name}}</span></a>{{/edit}}
              {{#testable}}<form method="post" action="/console/provider-test">
                <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="providerId" value="{{id}}">
                <button type="submit" class="quiet">Test sign-in<span class="visually-hidden"> with {{name}}</span></button>
              </form>{{/testable}}
              {{#untestable}}<span class="muted">Test sign-in {{untestable}}</span>{{/untestable}}
            </div></td>{{/canWrite}}
          </tr>{{/grid}}
          </tbody>
        </table>
        {{#canWrite}}<p class="row-actions"><a href="/console/providers/oidc">Add an OpenID Connect provider</a>
        <a href="/console/providers/saml">Add a SAML provider</a></p>{{/canWrite}}
        </section>
        """

    static let mfaFirstFactors = """
        <h3 id="mfa-first-factors">Second factor by sign-in method</h3>
        <p class="muted">Flint's <code>flint.mfaFirstFactors</code>: a sign-in method's own state over the project's
        while MFA is on. Not asked: its sign-ins get tokens without a second factor; asked when enrolled: accounts with a
        second factor answer its challenge; must enrol: accounts without one enrol one first.</p>
        {{#canWrite}}
        <form method="post" action="/console/settings/mfa-first-factors" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          {{#firstFactors}}<label for="mfa-{{slug}}">{{name}} <span class="muted">{{id}}</span></label>
          <select id="mfa-{{slug}}" name="mfa:{{id}}"{{#errors.mfaFirstFactors}} aria-describedby="mfaFirstFactors-error"{{/errors.mfaFirstFactors}}>
            {{#options}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/options}}
          </select>{{/firstFactors}}
          {{#errors.mfaFirstFactors}}<p class="error" id="mfaFirstFactors-error" role="alert">{{errors.mfaFirstFactors}}</p>{{/errors.mfaFirstFactors}}
          <button type="submit">Save second factors by method</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<dl class="facts">{{#firstFactors}}<dt>{{name}}</dt><dd>{{#options}}{{#selected}}{{label}}{{/selected}}{{/options}}</dd>{{/firstFactors}}</dl>{{/canWrite}}
        """

    /// A provider's test sign-in, as it ended.
    static let providerTest = """
        {{#identity}}
        <p class="notice" role="status">The sign-in with {{providerId}} works: the provider vouched for this identity.</p>
        <dl class="facts">
          <dt>Provider</dt><dd><code>{{providerId}}</code></dd>
          <dt>Provider's user ID</dt><dd><code>{{rawId}}</code></dd>
          <dt>Email</dt><dd>{{email}}{{^email}}—{{/email}}{{#email}} {{#emailVerified}}<span class="tag">verified</span>{{/emailVerified}}{{^emailVerified}}<span class="tag off">not verified</span>{{/emailVerified}}{{/email}}</dd>
          <dt>Name</dt><dd>{{name}}{{^name}}—{{/name}}</dd>
          <dt>Account</dt><dd>{{#localId}}<a href="/console/users/{{localId}}">{{localId}}</a> holds this identity{{/localId}}{{^localId}}none: an app's sign-in would create one (or link it to the account of a verified email); this test created nothing{{/localId}}</dd>
        </dl>
        {{/identity}}
        {{#failure}}<p class="error" role="alert">The test sign-in failed: {{failure}}</p>{{/failure}}
        <p><a href="/console/settings#sign-in-methods">Back to the sign-in methods</a></p>
        """

    /// A test sign-in's steps that go on by themselves: to the handler after the start, and the same-site step the
    /// result takes to carry the console's session cookie (SameSite=Strict).
    static let providerTestHop = """
        <meta http-equiv="refresh" content="0;url={{next}}">
        <p>{{lead}} <a href="{{next}}">Continue</a>.</p>
        """
}
