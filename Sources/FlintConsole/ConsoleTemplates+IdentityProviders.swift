/// The generic OIDC and SAML providers' pages (``ConsoleIdentityProviders``), the project's or a tenant's: their list,
/// a provider's form for an operator who may write (a new provider's at `/console/providers/oidc` and
/// `/console/providers/saml`), its values for a read-only one, and the confirmation of its deletion. The client secret
/// is never in a page, only whether one is set. Links and forms name no tenant: the page's is added to them
/// (``ConsoleTenant/scopedLinks(_:)``).
extension ConsoleTemplates {
    static let identityProviders = """
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p>{{#tenantPage}}<a href="{{tenantPage}}">Back to the tenant's settings</a>{{/tenantPage}}{{^tenantPage}}<a href="/console/settings#sign-in-methods">Back to the sign-in methods</a>{{/tenantPage}}</p>
        <p class="muted">Identity Platform's <code>oauthIdpConfigs</code> and <code>inboundSamlConfigs</code>{{#tenantPage}} of this
        tenant: its users sign in with these, not with the project's{{/tenantPage}}.</p>
        <div class="scroll"><table class="cards">
          <caption>OpenID Connect and SAML providers</caption>
          <thead><tr><th scope="col">Provider</th><th scope="col">Kind</th><th scope="col">Sign-in</th><th scope="col">Issuer or sign-on URL</th></tr></thead>
          <tbody>
          {{#rows}}<tr><td data-label="Provider"><a href="{{href}}">{{name}}</a> <code>{{id}}</code></td><td data-label="Kind">{{kind}}</td>
          <td data-label="Sign-in">{{#enabled}}<span class="tag on">on</span>{{/enabled}}{{^enabled}}<span class="tag off">off</span>{{/enabled}}</td>
          <td data-label="Issuer or sign-on URL"><code>{{at}}</code></td></tr>{{/rows}}
          {{^rows}}<tr><td colspan="4">No OpenID Connect or SAML provider yet.</td></tr>{{/rows}}
          </tbody>
        </table></div>
        {{#canWrite}}<p><a href="/console/providers/oidc">Add an OpenID Connect provider</a> · <a href="/console/providers/saml">Add a SAML provider</a></p>{{/canWrite}}
        """

    static let identityProvider = """
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p><a href="{{back.href}}">{{back.label}}</a></p>
        {{#tenant}}<p>In the tenant <code>{{tenant}}</code>: its users sign in with it, the project's do not.</p>{{/tenant}}
        <p class="muted">Identity Platform's <code>{{collection}}</code>, as the Admin SDKs and the admin API set them: the
        same checks, and a <code>CONFIG_CHANGED</code> audit event naming you.{{#oidc}} Register
        <code>{{handler}}</code> as the redirect URI at the provider for its web sign-in; its keys are found through the
        issuer's <code>/.well-known/openid-configuration</code>.{{/oidc}}{{#saml}} Users sign in with it through the hosted
        handler (<code>{{handler}}</code>), which sends them to the identity provider and receives its response.{{/saml}}</p>
        {{#saml}}{{^isNew}}
        <section class="card" aria-labelledby="for-idp">
          <h2 id="for-idp">For the identity provider</h2>
          <p>Register this service provider at the identity provider with these values:</p>
          <dl class="facts">
            <dt>Service provider entity ID (audience)</dt><dd><code>{{spEntityId}}</code></dd>
            <dt>Assertion consumer service URL (callback)</dt><dd><code>{{callbackUri}}</code></dd>
          </dl>
          {{#hasSPCertificates}}
          <h3 id="sp-certificate">Service provider certificates</h3>
          <p>Flint signs this provider's authentication requests with its key when <em>Sign authentication requests</em> is
          on: give the identity provider these certificates as the service provider's signing certificates. During a key
          rollover (<code>flint providers saml rotate-sp-key</code>) there are two.</p>
          {{/hasSPCertificates}}
          {{#spCertificates}}
          <p><strong>{{role}}</strong></p>
          <pre class="claims uri" id="{{domID}}">{{pem}}</pre>
          {{/spCertificates}}
        </section>
        {{/isNew}}{{/saml}}
        {{#errors.form}}<p class="error" role="alert">{{errors.form}}</p>{{/errors.form}}
        {{#canWrite}}
        <form method="post" action="{{action}}" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          {{#isNew}}
          <label for="providerId">Provider ID: <code>{{prefix}}</code> then letters, digits, <code>-</code>, <code>_</code> or <code>.</code></label>
          <input id="providerId" name="providerId" value="{{typedId}}" required autocomplete="off" placeholder="{{prefix}}corp"\(invalid("providerId"))>
          \(error("providerId"))
          {{/isNew}}
          <label class="check" for="enabled"><input type="checkbox" id="enabled" name="enabled" value="true"{{#enabled}} checked{{/enabled}}\(invalid("enabled"))>
            Sign-in enabled</label>
          \(error("enabled"))
          <label for="displayName">Display name</label>
          <input id="displayName" name="displayName" value="{{displayName}}"\(invalid("displayName"))>
          \(error("displayName"))
          {{#oidc}}
          <label for="clientId">Client ID</label>
          <input id="clientId" name="clientId" value="{{clientId}}" autocomplete="off"\(invalid("clientId"))>
          \(error("clientId"))
          <label for="clientSecret">Client secret ({{#secretSet}}set: blank keeps it{{/secretSet}}{{^secretSet}}not set{{/secretSet}})</label>
          <input id="clientSecret" name="clientSecret" type="password" autocomplete="new-password" value=""\(invalid("clientSecret"))>
          \(error("clientSecret"))
          {{#secretSet}}<label class="check" for="clearSecret"><input type="checkbox" id="clearSecret" name="clearSecret" value="true">
            Remove the stored secret</label>{{/secretSet}}
          <label for="issuer">Issuer (an absolute http(s) URL)</label>
          <input id="issuer" name="issuer" value="{{issuer}}" inputmode="url" autocomplete="off"\(invalid("issuer"))>
          \(error("issuer"))
          <label for="flow">Response type (<code>responseType</code>)</label>
          <select id="flow" name="flow"\(invalid("responseType"))>
            <option value="code"{{#codeFlow}} selected{{/codeFlow}}>Authorization code (the web sign-in's; needs the secret)</option>
            <option value="idToken"{{^codeFlow}} selected{{/codeFlow}}>ID token</option>
          </select>
          \(error("responseType"))
          {{/oidc}}
          {{#saml}}
          <label for="idpEntityId">Identity provider's entity ID</label>
          <input id="idpEntityId" name="idpEntityId" value="{{idpEntityId}}" autocomplete="off"\(invalid("idpEntityId"))>
          \(error("idpEntityId"))
          <label for="ssoUrl">Single sign-on URL</label>
          <input id="ssoUrl" name="ssoUrl" value="{{ssoUrl}}" inputmode="url" autocomplete="off"\(invalid("ssoUrl"))>
          \(error("ssoUrl"))
          <label for="certificates">Signing certificates (PEM, one or more)</label>
          <textarea id="certificates" name="certificates" rows="6" spellcheck="false"\(invalid("certificates"))>
        {{certificates}}</textarea>
          \(error("certificates"))
          <label class="check" for="signRequest"><input type="checkbox" id="signRequest" name="signRequest" value="true"{{#signRequest}} checked{{/signRequest}}\(invalid("signRequest"))>
            Sign authentication requests</label>
          \(error("signRequest"))
          <label for="spEntityId">Service provider entity ID (this project, as the identity provider knows it)</label>
          <input id="spEntityId" name="spEntityId" value="{{spEntityId}}" autocomplete="off"\(invalid("spEntityId"))>
          \(error("spEntityId"))
          <label for="callbackUri">Callback URL (where the identity provider posts its response)</label>
          <input id="callbackUri" name="callbackUri" value="{{callbackUri}}" inputmode="url" autocomplete="off"\(invalid("callbackUri"))>
          \(error("callbackUri"))
          {{/saml}}
          <button type="submit">{{#isNew}}Add provider{{/isNew}}{{^isNew}}Save provider{{/isNew}}</button>
        </form>
        {{^isNew}}
        <form method="post" action="{{action}}/delete" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <button type="submit" class="danger">Delete {{providerId}}</button>
        </form>
        {{/isNew}}
        {{/canWrite}}
        {{^canWrite}}
        <dl class="facts">
          <dt>Provider ID</dt><dd><code>{{providerId}}</code></dd>
          <dt>Sign-in</dt><dd>{{#enabled}}enabled{{/enabled}}{{^enabled}}disabled{{/enabled}}</dd>
          <dt>Display name</dt><dd>{{displayName}}{{^displayName}}—{{/displayName}}</dd>
          {{#oidc}}
          <dt>Client ID</dt><dd>{{#clientId}}<code>{{clientId}}</code>{{/clientId}}{{^clientId}}—{{/clientId}}</dd>
          <dt>Client secret</dt><dd>{{#secretSet}}set{{/secretSet}}{{^secretSet}}not set{{/secretSet}}</dd>
          <dt>Issuer</dt><dd><code>{{issuer}}</code></dd>
          <dt>Response type</dt><dd>{{#codeFlow}}authorization code{{/codeFlow}}{{^codeFlow}}ID token{{/codeFlow}}</dd>
          {{/oidc}}
          {{#saml}}
          <dt>Identity provider's entity ID</dt><dd><code>{{idpEntityId}}</code></dd>
          <dt>Single sign-on URL</dt><dd><code>{{ssoUrl}}</code></dd>
          <dt>Sign authentication requests</dt><dd>{{#signRequest}}yes{{/signRequest}}{{^signRequest}}no{{/signRequest}}</dd>
          {{/saml}}
        </dl>
        {{#saml}}<h2>Signing certificates</h2><pre class="claims uri">{{certificates}}</pre>{{/saml}}
        {{/canWrite}}
        """

    /// The confirmation of a provider's deletion.
    static let identityProviderDelete = """
        <div class="card">
          <p>Delete {{providerId}}? Its users can no longer sign in with it; their accounts keep its identities.</p>
          <form method="post" action="/console/providers/{{providerId}}/delete">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="confirmed" value="yes">
            <button type="submit" class="danger">Confirm</button>
            <a href="/console/providers/{{providerId}}">Cancel</a>
          </form>
        </div>
        """
}
