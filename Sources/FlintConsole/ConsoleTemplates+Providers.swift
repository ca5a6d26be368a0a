/// The settings page's sign-in providers section: one row per built-in provider (its state, client ID and whether a
/// secret is set — never the secret), and for an operator who may write one form per provider.
extension ConsoleTemplates {
    static let providers = """
        <h2 id="providers">Sign-in providers</h2>
        <p class="muted">Identity Platform's <code>defaultSupportedIdpConfigs</code>, as the Admin SDKs and
        <code>flint config</code> set them; register <code>&lt;public URL&gt;/__/auth/handler</code> as the redirect URI at
        each provider for its web sign-in. Secrets are sealed with the master key and never shown here: leave the field
        blank to keep the stored one.</p>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Provider</th><th scope="col">State</th><th scope="col">Client ID</th><th scope="col">Secret</th></tr></thead>
          <tbody>
          {{#providers}}<tr><th scope="row">{{name}} <span class="muted">{{id}}</span></th>
            <td>{{#enabled}}enabled{{/enabled}}{{^enabled}}{{#configured}}disabled{{/configured}}{{^configured}}not configured{{/configured}}{{/enabled}}</td>
            <td>{{#takesCredentials}}{{#clientId}}<code>{{clientId}}</code>{{/clientId}}{{^clientId}}none{{/clientId}}{{/takesCredentials}}{{^takesCredentials}}no credentials (the apps' bundle IDs){{/takesCredentials}}</td>
            <td>{{#takesCredentials}}{{#secretSet}}set{{/secretSet}}{{^secretSet}}not set{{/secretSet}}{{/takesCredentials}}</td></tr>{{/providers}}
          </tbody>
        </table></div>
        {{#canWrite}}
        {{#providers}}
        <details class="card" id="provider-{{slug}}"{{#error}} open{{/error}}{{#editing}} open{{/editing}}>
          <summary>{{name}}</summary>
          <form method="post" action="/console/settings/providers">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <input type="hidden" name="providerId" value="{{id}}">
            <label class="check" for="enabled-{{slug}}"><input type="checkbox" id="enabled-{{slug}}" name="enabled-{{slug}}" value="true"{{#enabled}} checked{{/enabled}}>
              {{name}} sign-in enabled</label>
            {{#takesCredentials}}
            <label for="clientId-{{slug}}">{{clientIdLabel}}</label>
            <input id="clientId-{{slug}}" name="clientId" value="{{clientId}}" autocomplete="off">
            <label for="clientSecret-{{slug}}">{{secretLabel}} ({{#secretSet}}set: blank keeps it{{/secretSet}}{{^secretSet}}not set{{/secretSet}})</label>
            <input id="clientSecret-{{slug}}" name="clientSecret" type="password" autocomplete="new-password" value="">
            {{#secretSet}}<label class="check" for="clearSecret-{{slug}}"><input type="checkbox" id="clearSecret-{{slug}}" name="clearSecret-{{slug}}" value="true">
              Remove the stored secret</label>{{/secretSet}}
            {{/takesCredentials}}
            {{#takesBundleIds}}
            <label for="bundleIds-{{slug}}">The apps' bundle IDs (ID-token audiences besides the services ID; one a line)</label>
            <textarea id="bundleIds-{{slug}}" name="bundleIds" rows="2">{{bundleIds}}</textarea>
            {{/takesBundleIds}}
            {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
            <button type="submit">Save {{name}}</button>
          </form>
        </details>
        {{/providers}}
        {{/canWrite}}
        """
}
