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
        <div class="charts">
        {{#charts}}{{> chart}}{{/charts}}
        </div>
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
            {{#ticks}}<text class="axis" x="{{x}}" y="{{tickY}}" text-anchor="middle">{{label}}</text>{{/ticks}}
          </svg>
          <ul class="legend">{{#legend}}<li><span class="swatch {{style}}"></span>{{name}} <span class="muted">{{total}}</span></li>{{/legend}}</ul>
          {{/svg}}
          {{^svg}}<p class="muted">{{summary}}</p>{{/svg}}
          <details>
            <summary>Numbers</summary>
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
