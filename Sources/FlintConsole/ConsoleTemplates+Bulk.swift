/// The users list's bulk actions: the one confirmation page listing the accounts, and the result per account.
extension ConsoleTemplates {
    static let bulkConfirm = """
        <div class="card">
          <p>{{question}}</p>
          <form method="post" action="/console/users/bulk">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="{{action}}">
            <input type="hidden" name="confirmed" value="yes">
            <table class="cards">
              <caption>The selected accounts</caption>
              <thead><tr><th scope="col">User ID</th><th scope="col">Email</th><th scope="col">Phone</th></tr></thead>
              <tbody>
              {{#accounts}}<tr><td data-label="User ID"><input type="hidden" name="u:{{localId}}" value="on">
              <a href="/console/users/{{localId}}">{{localId}}</a>{{#missing}} <span class="tag off">no such account</span>{{/missing}}</td>
              <td data-label="Email">{{email}}</td><td data-label="Phone">{{phone}}</td></tr>{{/accounts}}
              </tbody>
            </table>
            <button type="submit" class="danger">Confirm</button>
            <a href="/console/users">Cancel</a>
          </form>
        </div>
        """

    static let bulkDone = """
        <p class="notice" role="status">{{summary}}</p>
        <table class="cards">
          <thead><tr><th scope="col">User ID</th><th scope="col">Result</th></tr></thead>
          <tbody>
          {{#results}}<tr><td data-label="User ID">{{#deleted}}{{localId}}{{/deleted}}{{^deleted}}<a href="/console/users/{{localId}}">{{localId}}</a>{{/deleted}}</td>
          <td data-label="Result">{{#ok}}{{result}}{{/ok}}{{^ok}}<span class="error">{{result}}</span>{{/ok}}</td></tr>{{/results}}
          </tbody>
        </table>
        <p><a href="/console/users">Back to users</a></p>
        """
}

/// "Add a user".
extension ConsoleTemplates {
    static let newUser = """
        <form method="post" action="/console/new-user" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <p>An email with a password, a phone number, or both. The account is created as the admin API's
          <code>accounts</code> create makes it (its rules, its errors), and audited.</p>
          {{#error}}<p class="error" role="alert" id="new-user-error">{{error}}</p>{{/error}}
          <label for="email">Email</label>
          <input id="email" name="email" type="email" value="{{email}}">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="new-password">
          <label class="check"><input type="checkbox" name="verified" value="yes"{{#verified}} checked{{/verified}}> The email is verified</label>
          <label for="phone">Phone number (international: +1 650 555 3434)</label>
          <input id="phone" name="phone" type="tel" value="{{phone}}">
          <label for="name">Display name (optional)</label>
          <input id="name" name="name" value="{{name}}">
          <button type="submit">Create the account</button>
          <a href="/console/users">Cancel</a>
        </form>
        """
}
