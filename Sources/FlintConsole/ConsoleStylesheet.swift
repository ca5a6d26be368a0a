/// The console's one stylesheet, served by Flint at `/console/console.css`: system fonts only, light and dark
/// (`prefers-color-scheme`), visible keyboard focus; the dashboard's chart colours (colour-blind safe, one set per
/// scheme) by class, since the CSP allows no inline style. Below 640 px, `table.cards` rows become one card each, their
/// cells labelled from `data-label`, so no page scrolls sideways on a phone.
enum ConsoleStylesheet {
    static let path = "/console/console.css"

    static let text = """
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --card: #f6f8fa;
          --accent: #b34700; --accent-fg: #ffffff; --danger: #b3261e; --ok: #1a7f37; --focus: #0969da;
          --c0: #0072b2; --c1: #d55e00; --c2: #009e73; --c3: #cc79a7; --c4: #e69f00; --c5: #8c959f; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9da7b3; --line: #30363d; --card: #161b22; --accent: #ff9a4d;
            --accent-fg: #0d1117; --danger: #ff7b72; --ok: #3fb950; --focus: #58a6ff;
            --c0: #56b4e9; --c1: #ff8c42; --c2: #3fc79a; --c3: #e39bc8; --c4: #f0c040; --c5: #6e7681; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        a { color: var(--focus); }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 8px; top: 8px; background: var(--card); padding: 4px 8px; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; padding: 10px 24px; border-bottom: 1px solid var(--line); background: var(--card); }
        .brand { font-weight: 700; color: var(--accent); }
        .project { color: var(--muted); }
        nav { display: flex; flex-wrap: wrap; gap: 12px; }
        nav a { text-decoration: none; padding: 4px 2px; }
        nav a[aria-current="page"] { font-weight: 700; border-bottom: 2px solid var(--accent); }
        .signout { margin-left: auto; display: flex; align-items: center; gap: 8px; }
        .who { color: var(--muted); font-size: 13px; }
        .picker { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; width: 100%; }
        .picker input[type="search"] { min-width: 0; flex: 1 1 160px; max-width: 320px; }
        main { padding: 16px 24px 48px; max-width: 1200px; }
        h1 { font-size: 1.5rem; margin: 8px 0 16px; overflow-wrap: anywhere; }
        h2 { font-size: 1.15rem; margin-top: 28px; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px; max-width: 640px; }
        label { display: block; font-weight: 600; margin: 12px 0 4px; }
        input, select, textarea { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; }
        .card input, .card textarea { width: 100%; }
        label.check { font-weight: 400; }
        .card select { display: block; max-width: 100%; }
        .card input[type="checkbox"], .card input[type="radio"] { width: auto; margin: 0 6px 0 0; }
        section.card + section.card { margin-top: 16px; } section.card > h2:first-child { margin-top: 0; }
        h3 { font-size: 1rem; margin-top: 20px; }
        textarea { font-family: ui-monospace, monospace; }
        button { font: inherit; margin-top: 12px; padding: 6px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent);
          color: var(--accent-fg); cursor: pointer; }
        td button { margin: 0; }
        button.quiet { margin: 0; background: transparent; color: var(--fg); border-color: var(--line); }
        button.danger { background: transparent; color: var(--danger); border-color: var(--danger); }
        .search { display: flex; flex-wrap: wrap; align-items: end; gap: 8px; margin-bottom: 16px; }
        .search > label { margin: 0; width: 100%; }
        .search .hint { width: 100%; margin: 0; order: 3; font-size: 13px; }
        .search .field label { margin: 0 0 4px; }
        .search button { margin: 0; }
        .search input[type="search"] { min-width: min(320px, 100%); }
        .search .field, .search select { max-width: 100%; }
        table { border-collapse: collapse; width: 100%; margin: 8px 0; }
        caption { text-align: left; color: var(--muted); padding-bottom: 6px; }
        th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { font-weight: 600; color: var(--muted); }
        td code { word-break: break-all; }
        code { overflow-wrap: anywhere; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
        .tag { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 10px; border: 1px solid var(--ok); color: var(--ok); }
        .tag.off { border-color: var(--danger); color: var(--danger); }
        .providers { list-style: none; margin: 0; padding: 0; }
        .providers li { display: inline-flex; align-items: center; gap: 4px; margin-right: 8px; white-space: nowrap; }
        .icon { flex: none; vertical-align: middle; }
        .row-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
        .filters { border-top: 1px solid var(--line); padding-top: 12px; }
        th[aria-sort="ascending"] a::after { content: " \\2191"; }
        th[aria-sort="descending"] a::after { content: " \\2193"; }
        .error { color: var(--danger); font-weight: 600; }
        .notice { color: var(--ok); font-weight: 600; }
        .banner { background: var(--card); border-left: 4px solid var(--accent); padding: 6px 12px; }
        .actions { display: flex; flex-wrap: wrap; gap: 12px; }
        .claims { background: var(--card); border: 1px solid var(--line); padding: 8px; border-radius: 6px; white-space: pre-wrap; }
        .secret { font-size: 1.1rem; letter-spacing: 2px; }
        .code { font-size: 1.25rem; letter-spacing: 2px; font-weight: 700; }
        .uri { word-break: break-all; }
        .muted { color: var(--muted); }
        .tiles { display: flex; flex-wrap: wrap; gap: 12px; margin: 0 0 16px; padding: 0; list-style: none; }
        .tiles li { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; min-width: 120px; }
        .tiles .name { display: block; color: var(--muted); font-size: 13px; }
        .tiles .value { display: block; font-size: 1.6rem; font-weight: 700; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(480px, 100%), 1fr)); gap: 16px; align-items: start; }
        figure.chart { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
        figure.chart svg { display: block; width: 100%; height: auto; margin-top: 8px; }
        .chart .grid { stroke: var(--line); stroke-width: 1; }
        .chart .axis { fill: var(--muted); font-size: 16px; }
        .chart rect { fill: var(--c); }
        .legend { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; margin: 6px 0; font-size: 13px; }
        .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; background: var(--c); }
        .s0 { --c: var(--c0); } .s1 { --c: var(--c1); } .s2 { --c: var(--c2); } .s3 { --c: var(--c3); } .s4 { --c: var(--c4); }
        .other { --c: var(--c5); } .ok { --c: var(--ok); } .bad { --c: var(--danger); }
        .chart line.limit { stroke: var(--fg); stroke-width: 2; stroke-dasharray: 8 4; } .chart .limit-label { fill: var(--fg); }
        .swatch.limit { background: transparent; border-top: 2px dashed var(--fg); height: 0; border-radius: 0; vertical-align: middle; }
        .budget { margin-bottom: 16px; } .budget figure.chart { margin-bottom: 12px; }
        details summary { cursor: pointer; color: var(--muted); }
        .periods { margin-bottom: 8px; }
        .editor { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(440px, 100%), 1fr)); gap: 16px; align-items: start; }
        .editor .card { max-width: none; }
        .editor h2 { margin-top: 0; }
        .tag.builtin { border-color: var(--line); color: var(--muted); }
        a.tag { text-decoration: none; }
        label .tag { font-weight: 400; margin-left: 6px; }
        iframe.email { display: block; width: 100%; height: 560px; border: 1px solid var(--line); border-radius: 6px; background: #ffffff; }
        .sms { display: inline-block; max-width: 320px; margin: 8px 0; padding: 8px 12px; border-radius: 14px; background: var(--card);
          border: 1px solid var(--line); white-space: pre-wrap; }
        .scroll { overflow-x: auto; }
        .overview th[scope="row"] { color: var(--fg); }
        @media (max-width: 640px) {
          header.top, main { padding-left: 12px; padding-right: 12px; }
          table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
          table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
          table.cards tr { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 10px; padding: 4px 0; }
          table.cards td { border: 0; padding: 2px 10px; overflow-wrap: anywhere; }
          table.cards td[data-label] { display: grid; grid-template-columns: 7.5em minmax(0, 1fr); gap: 8px; }
          table.cards td[data-label]::before { content: attr(data-label); font-size: 13px; font-weight: 600; color: var(--muted); }
        }
        """
}
