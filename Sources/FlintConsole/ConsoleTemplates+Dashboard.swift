/// The dashboard's templates: the page (period switch, totals, charts) and one chart (``ConsoleChart``'s data) as
/// inline SVG with its legend and its numbers in a table.
extension ConsoleTemplates {
    static let dashboard = """
        <nav class="periods" aria-label="Period">
          {{#periods}}<a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{title}}</a>{{/periods}}
        </nav>
        <p class="muted">Hours and days in UTC. Every node adds its counts to the store about once a second; the numbers
        are those of <code>/metrics</code>, summed over the nodes.</p>
        <ul class="tiles" aria-label="Totals, {{period}}">
          {{#tiles}}<li><span class="name">{{name}}</span> <span class="value">{{value}}</span></li>{{/tiles}}
        </ul>
        <p><a href="{{csv.href}}" download>Download {{csv.period}} as CSV</a> <span class="muted">(one row per UTC day:
        <code>date,sign_ins,new_users,sms_sent,sms_refused,emails_sent,emails_failed,errors</code>)</span></p>
        {{#smsBudget}}{{> smsBudget}}{{/smsBudget}}
        <div class="charts">
        {{#charts}}{{> chart}}{{/charts}}
        </div>
        """

    /// Today's SMS by country against the budget (``ConsoleSMSBudget``): its chart, then its table.
    static let smsBudget = """
        <section class="budget" id="sms-budget" aria-labelledby="sms-budget-h">
          <h2 id="sms-budget-h">SMS today by country, against the limits</h2>
          <p class="muted">{{note}}</p>
          {{#chart}}{{> chart}}{{/chart}}
          <div class="scroll"><table class="cards">
            <caption class="visually-hidden">SMS today by country</caption>
            <thead><tr><th scope="col">Country</th><th scope="col">Sent today</th><th scope="col">Refused today</th>
              <th scope="col">Share of the daily budget</th><th scope="col">Busiest hour (sent)</th><th scope="col">Per-country hourly cap</th></tr></thead>
            <tbody>
            {{#rows}}<tr><th scope="row">{{country}}</th><td data-label="Sent today">{{sent}}</td><td data-label="Refused today">{{refused}}</td>
              <td data-label="Share of budget">{{share}}</td><td data-label="Busiest hour">{{busiest}}</td><td data-label="Hourly cap">{{cap}}</td></tr>{{/rows}}
            {{^rows}}<tr><td colspan="6">No SMS today.</td></tr>{{/rows}}
            </tbody>
          </table></div>
        </section>
        """

    static let chart = """
        <figure class="chart" aria-labelledby="{{id}}-caption">
          <figcaption id="{{id}}-caption"><strong>{{title}}</strong> <span class="muted">{{total}} in all</span></figcaption>
          {{#svg}}
          <svg viewBox="0 0 {{width}} {{height}}" role="img" aria-labelledby="{{id}}-t {{id}}-d" focusable="false">
            <title id="{{id}}-t">{{title}}</title>
            <desc id="{{id}}-d">{{summary}}</desc>
            {{#grid}}<line class="grid" x1="{{gridLeft}}" x2="{{gridRight}}" y1="{{y}}" y2="{{y}}"></line>
            <text class="axis" x="{{labelX}}" y="{{labelY}}" text-anchor="end">{{label}}</text>{{/grid}}
            {{#bars}}<rect class="{{style}}" x="{{x}}" y="{{y}}" width="{{width}}" height="{{height}}"><title>{{tip}}</title></rect>{{/bars}}
            {{#limitLine}}<line class="limit" x1="{{gridLeft}}" x2="{{gridRight}}" y1="{{y}}" y2="{{y}}"></line>
            <text class="axis limit-label" x="{{textX}}" y="{{textY}}" text-anchor="end">{{label}}</text>{{/limitLine}}
            {{#ticks}}<text class="axis" x="{{x}}" y="{{tickY}}" text-anchor="middle">{{label}}</text>{{/ticks}}
          </svg>
          <ul class="legend">{{#legend}}<li><span class="swatch {{style}}"></span>{{name}} <span class="muted">{{total}}</span></li>{{/legend}}{{#limit}}<li><span class="swatch limit"></span>{{label}} <span class="muted">{{value}}</span></li>{{/limit}}</ul>
          {{/svg}}
          {{^svg}}<p class="muted">{{summary}}</p>{{/svg}}
          <details>
            <summary>Numbers{{#byMonth}} by month (each day is in the CSV download){{/byMonth}}</summary>
            <div class="scroll"><table>
              <caption class="visually-hidden">{{title}}</caption>
              <thead><tr><th scope="col">Period</th>{{#columns}}<th scope="col">{{name}}</th>{{/columns}}<th scope="col">Total</th></tr></thead>
              <tbody>
              {{#rows}}<tr><th scope="row">{{name}}</th>{{#cells}}<td>{{value}}</td>{{/cells}}<td>{{total}}</td></tr>{{/rows}}
              </tbody>
            </table></div>
          </details>
        </figure>
        """
}
