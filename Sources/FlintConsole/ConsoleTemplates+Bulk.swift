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
