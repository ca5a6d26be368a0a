import FlintCore

/// The settings page's policy sections (``ConsolePolicies``): the password policy, the SMS region policy and the SMS
/// spend limits, each a form (for an operator who may write) or the values alone (for a read-only one), the config's
/// refusal beside the field it names.
extension ConsoleTemplates {
    static let policies = """
        <h2 id="password-policy">Password policy</h2>
        <p class="muted">Identity Platform's <code>passwordPolicyConfig</code>: enforced at sign-up, password changes and
        resets, and answered to the SDKs' <code>passwordPolicy</code> call so they check before sending.</p>
        {{#canWrite}}
        <form method="post" action="/console/settings/password-policy" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="passwordPolicyEnforcement">Enforcement (<code>passwordPolicyEnforcementState</code>)</label>
          <select id="passwordPolicyEnforcement" name="passwordPolicyEnforcement"\(invalid("passwordPolicyEnforcement"))>
            {{#passwordPolicyOptions}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/passwordPolicyOptions}}
          </select>
          \(error("passwordPolicyEnforcement"))
          <label class="check" for="forceUpgradeOnSignin"><input type="checkbox" id="forceUpgradeOnSignin" name="forceUpgradeOnSignin"
            value="true"{{#forceUpgradeOnSignin}} checked{{/forceUpgradeOnSignin}}\(invalid("forceUpgradeOnSignin"))>
            Ask for a new password at sign-in when the old one misses the policy</label>
          \(error("forceUpgradeOnSignin"))
          <label for="minPasswordLength">Minimum length (6 to 30)</label>
          <input id="minPasswordLength" name="minPasswordLength" inputmode="numeric" value="{{minPasswordLength}}"\(invalid("minPasswordLength"))>
          \(error("minPasswordLength"))
          <label for="maxPasswordLength">Maximum length (empty: 4096)</label>
          <input id="maxPasswordLength" name="maxPasswordLength" inputmode="numeric" value="{{maxPasswordLength}}"\(invalid("maxPasswordLength"))>
          \(error("maxPasswordLength"))
          <fieldset><legend>Required characters</legend>
          {{#characterClasses}}<label class="check" for="{{name}}"><input type="checkbox" id="{{name}}" name="{{name}}" value="true"{{#on}} checked{{/on}}>
            {{label}}</label>{{/characterClasses}}
          </fieldset>
          <button type="submit">Save password policy</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<dl class="facts">
          <dt>Enforcement</dt><dd>{{passwordPolicyEnforcement}}</dd>
          <dt>Lengths</dt><dd>{{minPasswordLength}} to {{maxPasswordLength}}{{^maxPasswordLength}}4096{{/maxPasswordLength}}</dd>
          <dt>Required characters</dt><dd>{{#characterClasses}}{{#on}}{{label}}. {{/on}}{{/characterClasses}}</dd>
        </dl>{{/canWrite}}
        <h2 id="sms-regions">SMS regions</h2>
        <p class="muted">Identity Platform's <code>smsRegionConfig</code>: which countries SMS codes may go to (by the
        number's region). Now: {{smsRegionSummary}}.</p>
        {{#canWrite}}
        <form method="post" action="/console/settings/sms-regions" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="smsRegionMode">Policy</label>
          <select id="smsRegionMode" name="smsRegionMode">
            {{#smsRegionModes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/smsRegionModes}}
          </select>
          <label for="smsRegions">Regions (two-letter codes such as US, GB, separated by commas)</label>
          <input id="smsRegions" name="smsRegions" value="{{smsRegions}}" autocapitalize="characters"\(invalid("smsRegions"))>
          \(error("smsRegions"))
          <button type="submit">Save SMS regions</button>
        </form>
        {{/canWrite}}
        <h2 id="sms-limits">SMS limits and budget</h2>
        <p class="muted">Flint's <code>flint.smsLimits</code>: a text beyond a limit is refused (0 turns a limit off);
        fictional numbers count nowhere.</p>
        {{#canWrite}}
        <form method="post" action="/console/settings/sms-limits" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          \(ProjectConfig.SMSLimits.fields.map(limitField).joined(separator: "\n  "))
          <button type="submit">Save SMS limits</button>
        </form>
        {{/canWrite}}
        {{^canWrite}}<dl class="facts">{{#smsLimits}}<dt>{{label}}</dt><dd>{{value}}</dd>{{/smsLimits}}</dl>{{/canWrite}}
        """

    /// One SMS limit's field.
    private static func limitField(_ name: String) -> String {
        """
        <label for="\(name)">\(ConsolePolicies.limitLabels[name] ?? name)</label>
          <input id="\(name)" name="\(name)" inputmode="numeric" value="{{\(name)}}"\(invalid(name))>
          \(error(name))
        """
    }

    /// A field's `aria-invalid` and description when the config refused it.
    static func invalid(_ name: String) -> String {
        #"{{#errors.\#(name)}} aria-invalid="true" aria-describedby="\#(name)-error"{{/errors.\#(name)}}"#
    }

    /// A field's refusal, beside it.
    static func error(_ name: String) -> String {
        #"{{#errors.\#(name)}}<p class="error" id="\#(name)-error" role="alert">{{errors.\#(name)}}</p>{{/errors.\#(name)}}"#
    }
}
