/// Users — import and export: the page with the export and import forms and the recent imports, an import's page
/// (``importStatus``, followed by the console's script) and its progress or report (``importJob``, also served alone
/// for the script to put in place).
extension ConsoleTemplates {
    static let transfers = """
        <p><a href="/console/users">Back to the users</a></p>
        <section class="card" aria-labelledby="export-h">
          <h2 id="export-h">Export</h2>
          <p>Every account as <code>flint users export</code> and <code>firebase auth:export</code> write them, password
          hashes included (each with its algorithm's import flags; second factors in JSON only). The download is audited.</p>
          <form method="post" action="/console/export">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <fieldset><legend>Format</legend>
              <label class="check"><input type="radio" name="format" value="json" checked> JSON</label>
              <label class="check"><input type="radio" name="format" value="csv"> CSV (Firebase's 52 columns, no header)</label>
            </fieldset>
            <button type="submit">Download every user</button>
          </form>
        </section>
        {{#canWrite}}
        <section class="card" aria-labelledby="import-h">
          <h2 id="import-h">Import</h2>
          <p>A file that <code>firebase auth:export</code> or <code>flint users export</code> wrote (<code>.json</code>
          or <code>.csv</code>, at most {{limit}}), imported as <code>flint users import</code> does it: each user whole or
          not at all, a refused user reported with its row and reason. The hash parameters are
          <code>firebase auth:import</code>'s (Firebase's console: Authentication › Users › ⋮ › Password hash parameters).</p>
          {{#error}}<p class="error" role="alert" id="import-error">{{error}}</p>{{/error}}
          <form method="post" action="/console/import" enctype="multipart/form-data">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="file">File</label>
            <input id="file" name="file" type="file" accept=".json,.csv,application/json,text/csv" required>
            <label for="format">Format, when the name does not end in .json or .csv</label>
            <select id="format" name="format"><option value="json">JSON</option><option value="csv">CSV</option></select>
            <label for="hashAlgo">Password hash algorithm</label>
            <select id="hashAlgo" name="hashAlgo">{{#algorithms}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/algorithms}}</select>
            <details>
              <summary>Hash parameters</summary>
              <label for="hashKey">Hash key (base64; SCRYPT, HMAC_*)</label><input id="hashKey" name="hashKey" value="{{hashKey}}" autocomplete="off">
              <label for="saltSeparator">Salt separator (base64; SCRYPT)</label><input id="saltSeparator" name="saltSeparator" value="{{saltSeparator}}">
              <label for="rounds">Rounds</label><input id="rounds" name="rounds" inputmode="numeric" value="{{rounds}}">
              <label for="memCost">Memory cost (SCRYPT: 1–14; STANDARD_SCRYPT: N)</label><input id="memCost" name="memCost" inputmode="numeric" value="{{memCost}}">
              <label for="parallelization">Parallelization (STANDARD_SCRYPT)</label><input id="parallelization" name="parallelization" inputmode="numeric" value="{{parallelization}}">
              <label for="blockSize">Block size (STANDARD_SCRYPT)</label><input id="blockSize" name="blockSize" inputmode="numeric" value="{{blockSize}}">
              <label for="dkLen">Derived key length (STANDARD_SCRYPT)</label><input id="dkLen" name="dkLen" inputmode="numeric" value="{{dkLen}}">
              <label for="hashInputOrder">Hash input order (MD5, SHA*, HMAC_*)</label><input id="hashInputOrder" name="hashInputOrder" value="{{hashInputOrder}}" placeholder="SALT_FIRST or PASSWORD_FIRST">
            </details>
            <fieldset><legend>A user whose ID is already stored</legend>
              <label class="check"><input type="radio" name="existing" value="refuse"{{^existingSkip}}{{^existingOverwrite}} checked{{/existingOverwrite}}{{/existingSkip}}> Refuse it</label>
              <label class="check"><input type="radio" name="existing" value="skip"{{#existingSkip}} checked{{/existingSkip}}> Skip it (to finish an interrupted import)</label>
              <label class="check"><input type="radio" name="existing" value="overwrite"{{#existingOverwrite}} checked{{/existingOverwrite}}> Replace it (ending its sessions)</label>
            </fieldset>
            <button type="submit">Import</button>
          </form>
        </section>
        {{/canWrite}}
        <h2>Recent imports</h2>
        <p class="muted">Every node's, kept 30 days. An import whose node stopped before its end is shown interrupted:
        send the file again with “Skip it” to import the rest.</p>
        <div class="scroll"><table class="cards">
          <thead><tr><th scope="col">File</th><th scope="col">By</th><th scope="col">Started (UTC)</th><th scope="col">Imported</th><th scope="col">Refused</th><th scope="col">State</th></tr></thead>
          <tbody>
          {{#jobs}}<tr><td data-label="File"><a href="/console/import/{{id}}">{{file}}</a></td><td data-label="By">{{operator}}</td>
            <td data-label="Started">{{started}}</td><td data-label="Imported">{{imported}}</td><td data-label="Refused">{{failed}}</td>
            <td data-label="State">{{#running}}running, {{percent}} %{{/running}}{{^running}}{{status}}{{/running}}</td></tr>{{/jobs}}
          {{^jobs}}<tr><td colspan="6">None yet.</td></tr>{{/jobs}}
          </tbody>
        </table></div>
        """

    static let importStatus = """
        <p><a href="/console/import">Import and export</a></p>
        <div id="import-job" aria-live="polite">{{> importJob}}</div>
        <script src="/console/templates.js" defer></script>
        """

    static let importJob = """
        <section class="card" data-job="{{id}}"{{#running}} data-running="1"{{/running}}>
          <p>{{file}} ({{format}}, {{size}} bytes), sent by {{operator}} at {{started}} UTC{{#finished}}, finished at {{finished}} UTC{{/finished}}.</p>
          {{#running}}
          <label for="import-progress">Read {{offset}} of {{size}} bytes</label>
          <progress id="import-progress" max="100" value="{{percent}}">{{percent}} %</progress>
          <p>{{read}} users read: {{imported}} imported, {{skipped}} already present, {{failed}} refused so far.</p>
          <noscript><p><a href="/console/import/{{id}}">Refresh</a></p></noscript>
          {{/running}}
          {{^running}}{{^interrupted}}
          <p class="notice" id="import-done">Imported {{imported}} of {{read}} users ({{skipped}} already present, {{failed}} refused).</p>
          {{/interrupted}}{{/running}}
          {{#interrupted}}
          <p class="error" id="import-interrupted">Interrupted: its node stopped after {{read}} users ({{imported}} imported,
          {{skipped}} already present, {{failed}} refused; last progress at {{lastProgress}} UTC). Send the file again with
          “Skip it” to import the rest.</p>
          {{/interrupted}}
          {{#stoppedAt}}<p class="error">The file broke off at {{stoppedAt}}; the users before it were imported: fix the file and send it again with “Skip it”.</p>{{/stoppedAt}}
          {{^interrupted}}{{#error}}<p class="error">{{error}}</p>{{/error}}{{/interrupted}}
        </section>
        {{#hasFailures}}
        <h2>Refused rows</h2>
        <div class="scroll"><table class="cards" id="import-failures">
          <thead><tr><th scope="col">Row</th><th scope="col">Line</th><th scope="col">User ID</th><th scope="col">Reason</th></tr></thead>
          <tbody>
          {{#failures}}<tr><td data-label="Row">{{row}}</td><td data-label="Line">{{line}}</td><td data-label="User ID">{{localId}}</td><td data-label="Reason">{{message}}</td></tr>{{/failures}}
          </tbody>
        </table></div>
        {{#notListed}}<p class="muted">{{notListed}} more refused rows are not listed.</p>{{/notListed}}
        {{/hasFailures}}
        """
}
