/// The templates page's templates: the page (the text menus, the chosen text's editor beside its preview, the overview
/// of every locale and text) and the preview alone, which the page's script asks for as the operator types.
extension ConsoleTemplates {
    static let templates = """
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p class="muted">The texts of the emails and SMS Flint sends, by locale. A part left as it is stays Flint's built-in text;
        a changed one is saved as an override in <code>flint.emailTemplates</code> or <code>flint.smsTemplates</code> through the
        admin config API (an update with that path as its <code>updateMask</code>): the same checks, and a
        <code>CONFIG_CHANGED</code> audit event naming you.</p>
        <form method="get" action="/console/templates#editor" class="search">
          <div class="field"><label for="pick-locale">Locale</label>
          <input id="pick-locale" name="locale" list="locale-list" value="{{locale}}" required{{#pickError}} aria-invalid="true" aria-describedby="pick-locale-error"{{/pickError}}></div>
          <datalist id="locale-list">{{#localeOptions}}<option value="{{.}}"></option>{{/localeOptions}}</datalist>
          <div class="field"><label for="pick-template">Text</label>
          <select id="pick-template" name="template">
            {{#templateOptions}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/templateOptions}}
          </select></div>
          <button type="submit">Open</button>
          {{#pickError}}<p class="error" id="pick-locale-error" role="alert">{{pickError}}</p>{{/pickError}}
        </form>
        {{#editor}}
        <h2 id="editor">{{label}} · {{locale}}</h2>
        {{#note}}<p class="muted">{{note}}</p>{{/note}}
        <div class="editor">
        <form id="template-editor" method="post" action="/console/templates" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <input type="hidden" name="locale" value="{{locale}}">
          <input type="hidden" name="template" value="{{template}}">
          {{#fields}}
          <label for="{{name}}">{{label}} <span class="tag{{^overridden}} builtin{{/overridden}}" id="{{name}}-state">{{state}}</span></label>
          {{#multiline}}<textarea id="{{name}}" name="{{name}}" rows="{{rows}}" spellcheck="false"{{^canWrite}} readonly{{/canWrite}}{{#error}} aria-invalid="true" aria-describedby="{{name}}-error"{{/error}}>
        {{value}}</textarea>{{/multiline}}
          {{^multiline}}<input id="{{name}}" name="{{name}}" value="{{value}}"{{^canWrite}} readonly{{/canWrite}}{{#error}} aria-invalid="true" aria-describedby="{{name}}-error"{{/error}}>{{/multiline}}
          {{#error}}<p class="error" id="{{name}}-error" role="alert">{{error}}</p>{{/error}}
          {{#canWrite}}{{#resettable}}<button type="submit" form="template-reset" name="reset" value="{{name}}" class="quiet">Reset {{label}} to built-in</button>{{/resettable}}{{/canWrite}}
          {{/fields}}
          {{#maxLength}}<p class="muted">At most {{maxLength}} characters.</p>{{/maxLength}}
          <p class="muted">Placeholders: {{placeholders}}.</p>
          <div class="actions">
          <button type="submit" formaction="/console/templates/preview" class="quiet">Preview</button>
          {{#canWrite}}<button type="submit">Save template</button>{{/canWrite}}
          </div>
        </form>
        <section class="preview" aria-labelledby="preview-title">
          <h2 id="preview-title">Preview</h2>
          <div id="preview">{{{preview}}}</div>
        </section>
        </div>
        {{#canWrite}}{{#overridden}}<form id="template-reset" method="post" action="/console/templates">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <input type="hidden" name="locale" value="{{locale}}">
          <input type="hidden" name="template" value="{{template}}">
          <button type="submit" name="reset" value="all" class="danger">Reset this text to built-in</button>
        </form>{{/overridden}}{{/canWrite}}
        {{/editor}}
        <h2 id="overview">Every locale and text</h2>
        <div class="scroll">
        <table class="overview">
          <caption>Built-in: Flint's text. Overridden: the config's. English: no built-in text in the locale, English is sent.</caption>
          <thead><tr><th scope="col">Locale</th>{{#columns}}<th scope="col">{{label}}</th>{{/columns}}</tr></thead>
          <tbody>
          {{#rows}}<tr><th scope="row">{{locale}}</th>{{#cells}}<td><a href="{{href}}" class="tag{{^overridden}} builtin{{/overridden}}">{{state}}</a></td>{{/cells}}</tr>{{/rows}}
          </tbody>
        </table>
        </div>
        <script src="/console/templates.js" defer></script>
        """

    /// The preview of one text, rendered with sample values: an email's subject, its HTML part in a sandboxed frame
    /// (`srcdoc`, escaped: no script, no same-origin access, no navigation of the console) and its text part; an SMS's
    /// message, its length and SMS segments. The save's refusal, if the text would meet one, comes first.
    static let templatePreview = """
        {{#error}}<p class="error" id="preview-error" role="alert">Saving this would be refused: {{error}}</p>{{/error}}
        {{#email}}
        <dl class="facts">
          <dt>Subject</dt><dd id="preview-subject">{{subject}}</dd>
          <dt>To</dt><dd>user@example.com <span class="muted">(sample values; the link opens nothing)</span></dd>
        </dl>
        <h3>HTML part</h3>
        <iframe class="email" id="preview-html" title="HTML part of the email" sandbox srcdoc="{{html}}"></iframe>
        <h3>Text part</h3>
        <pre class="claims" id="preview-text">{{text}}</pre>
        {{/email}}
        {{#sms}}
        <p class="sms" id="preview-sms">{{text}}</p>
        <p class="muted" id="preview-length">{{length}} characters: {{segments}} SMS segment(s) in {{encoding}} (sample code 123456).</p>
        {{/sms}}
        """
}
