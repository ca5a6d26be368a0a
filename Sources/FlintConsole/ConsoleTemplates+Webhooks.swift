/// The webhooks page's template.
extension ConsoleTemplates {
    static let webhooks = """
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#secret}}<p class="notice" role="status">Signing secret: <code>{{secret}}</code></p>{{/secret}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <p>Operators' subscriptions to account events, delivered at least once and signed per Standard Webhooks
        (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>); a failed delivery is
        tried again for about a day.</p>
        <table class="cards">
          <thead><tr><th scope="col">ID</th><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th>
          <th scope="col">Created</th><th scope="col">Note</th>{{#canWrite}}<th scope="col">Actions</th>{{/canWrite}}</tr></thead>
          <tbody>
          {{#subscriptions}}
          <tr><td data-label="ID"><a href="/console/webhooks?subscription={{id}}"><code>{{id}}</code></a></td>
          <td data-label="URL">{{url}}</td><td data-label="Events">{{events}}</td>
          <td data-label="State">{{#enabled}}enabled{{/enabled}}{{^enabled}}disabled{{/enabled}}</td><td data-label="Created">{{created}}</td>
          <td data-label="Note">{{description}}</td>
          {{#canWrite}}<td>
          <form method="post" action="/console/webhooks" class="inline"><input type="hidden" name="csrf" value="{{csrf}}">
          <input type="hidden" name="subscription" value="{{id}}">
          {{#enabled}}<button type="submit" name="action" value="disable">Disable</button>{{/enabled}}
          {{^enabled}}<button type="submit" name="action" value="enable">Enable</button>{{/enabled}}
          <button type="submit" name="action" value="remove" class="danger">Remove</button></form></td>{{/canWrite}}</tr>
          {{/subscriptions}}
          {{^subscriptions}}<tr><td colspan="7">No webhook.</td></tr>{{/subscriptions}}
          </tbody>
        </table>
        {{#canWrite}}
        <form method="post" action="/console/webhooks" class="card">
          <h2>Add a webhook</h2>
          <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="add">
          <div class="field"><label for="url">URL</label><input id="url" name="url" value="{{url}}" size="60" required></div>
          <fieldset><legend>Events</legend>
          {{#eventTypes}}<label class="check"><input type="checkbox" name="event:{{.}}"> {{.}}</label> {{/eventTypes}}
          </fieldset>
          <div class="field"><label for="description">Note</label><input id="description" name="description" size="40"></div>
          <button type="submit">Add</button>
        </form>
        {{/canWrite}}
        <h2>Recent deliveries{{#chosen}} of <code>{{chosen}}</code> (<a href="/console/webhooks">all</a>){{/chosen}}</h2>
        <table class="cards">
          <thead><tr><th scope="col">Created</th><th scope="col">Webhook</th><th scope="col">Event</th><th scope="col">Status</th>
          <th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col">Last error</th><th scope="col">webhook-id</th>
          {{#canWrite}}<th scope="col"><span class="visually-hidden">Action</span></th>{{/canWrite}}</tr></thead>
          <tbody>
          {{#deliveries}}
          <tr><td data-label="Created">{{created}}</td><td data-label="Webhook"><code>{{subscription}}</code></td>
          <td data-label="Event">{{type}}</td><td data-label="Status">{{status}}</td><td data-label="Attempts">{{attempts}}</td>
          <td data-label="Next attempt">{{next}}</td><td data-label="Last error">{{error}}</td><td data-label="webhook-id"><code>{{webhookId}}</code></td>
          {{#canWrite}}<td><form method="post" action="/console/webhooks" class="inline"><input type="hidden" name="csrf" value="{{csrf}}">
          <input type="hidden" name="action" value="replay"><input type="hidden" name="delivery" value="{{sequence}}">
          <input type="hidden" name="subscription" value="{{chosen}}">
          <button type="submit">Replay</button></form></td>{{/canWrite}}</tr>
          {{/deliveries}}
          {{^deliveries}}<tr><td colspan="9">No delivery.</td></tr>{{/deliveries}}
          </tbody>
        </table>
        """
}
