/// The console's page frame and its sign-in pages, as Mustache templates: `{{name}}` inserts text HTML-escaped, and
/// only `{{{body}}}` (a page already rendered from its own template) is inserted as is.
extension ConsoleTemplates {
    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>{{title}} · Flint console</title>
        <link rel="stylesheet" href="/console/console.css">
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <span class="brand">Flint console</span>
          <span class="project">{{project}}</span>
          {{#caller}}
          <nav aria-label="Console">
            {{#nav}}<a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a>{{/nav}}
          </nav>
          <form method="post" action="/console/sign-out" class="signout">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <span class="who">{{email}} · {{role}}</span>
            <button type="submit" class="quiet">Sign out</button>
          </form>
          {{/caller}}
          {{#tenant}}
          <form method="get" action="/console/tenants" class="picker" role="search" aria-label="Tenant">
            <span>Tenant: <strong>{{label}}</strong></span>
            <input type="hidden" name="next" value="{{next}}">
            <input name="find" type="search" aria-label="Find a tenant by ID" placeholder="Find a tenant by ID">
            <button type="submit" class="quiet">Change</button>
          </form>
          {{/tenant}}
        </header>
        <main id="main">
        {{#devMode}}<p class="banner">Dev mode: the codes and links waiting to be used are in the
        <a href="/console/outbox">Outbox</a>.</p>{{/devMode}}
        <h1>{{title}}</h1>
        {{{body}}}
        </main>
        </body>
        </html>
        """

    static let signIn = """
        <form method="post" action="/console/sign-in" class="card">
          {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required value="{{email}}" autofocus>
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required>
          <button type="submit">Continue</button>
        </form>
        """

    static let totp = """
        <form method="post" action="/console/sign-in/totp" class="card">
          {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="code">Code from your authenticator app</label>
          <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required autofocus>
          <button type="submit">Sign in</button>
        </form>
        <p><a href="/console/sign-in">Start again</a></p>
        """

    static let setup = """
        <p>Welcome, {{email}}. Choose a password and add this console to an authenticator app (TOTP, 6 digits, 30 seconds).</p>
        <form method="post" action="/console/setup" class="card">
          {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
          <input type="hidden" name="token" value="{{token}}">
          <input type="hidden" name="sealed" value="{{sealed}}">
          <input type="text" name="username" value="{{email}}" autocomplete="username" hidden>
          <label for="password">Password (at least {{minLength}} characters)</label>
          <input id="password" name="password" type="password" autocomplete="new-password" minlength="{{minLength}}" required>
          <label for="confirmation">Password again</label>
          <input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="{{minLength}}" required>
          <p>Secret key (enter it in the app):</p>
          <p><code class="secret" id="secret">{{secret}}</code></p>
          <p>Or open this link on the device with the app:</p>
          <p><a class="uri" href="{{uri}}">{{uri}}</a></p>
          <label for="code">Code the app shows</label>
          <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
          <button type="submit">Finish setup</button>
        </form>
        """

    static let message = """
        <div class="card">
          <p{{#error}} class="error" role="alert"{{/error}}>{{text}}</p>
          {{#link}}<p><a href="{{href}}">{{label}}</a></p>{{/link}}
        </div>
        """
}
