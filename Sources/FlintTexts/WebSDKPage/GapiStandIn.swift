/// Flint's stand-in for gapi's iframe RPC (`/__/auth/gapi.js`), for sites that must not load Google's gapi: an app
/// includes it before the Firebase JS SDK (`<script src="https://<flint>/__/auth/gapi.js"></script>`), so the SDK
/// finds `gapi.iframes.Iframe` and loads nothing from apis.google.com. It implements what the SDK and Flint's iframe use:
/// `gapi.load("gapi.iframes", …)`, `gapi.iframes.getContext().open({url, where, attributes}, callback)` (resolving with
/// what the callback resolves with), `getParentIframe()`, `register` / `send` (the callback gets an array of the other
/// side's results; a call waits for its handler to be registered), `ping`, `restyle`, and
/// `CROSS_ORIGIN_IFRAMES_FILTER`, over its own `postMessage` protocol (each side checks the other's window and origin).
/// The iframe it opens carries `flintGapi=1` in its fragment (beside `parent`, the app's origin), which tells Flint's
/// iframe page (``IframeScript``) to load this script rather than Google's, so both sides speak the same protocol.
package enum GapiStandIn {
    /// Where Flint serves it.
    package static let path = "/__/auth/gapi.js"
    /// The fragment parameter of an iframe it opened.
    package static let marker = "flintGapi"

    /// The script.
    package static let text = """
        "use strict";
        (function () {
          if (window.gapi && window.gapi.iframes && window.gapi.iframes.Iframe) { return; }
          var TAG = "__flintGapi";
          var channels = [];
          function Channel(target, origin) {
            this.target = target;
            this.origin = origin;
            this.connected = false;
            this.outbox = [];
            this.handlers = {};
            this.waiting = {};
            this.callbacks = {};
            this.next = 1;
            channels.push(this);
          }
          Channel.prototype.post = function (message) {
            message[TAG] = true;
            if (this.connected || message.kind === "hello") { this.target.postMessage(message, this.origin); } else { this.outbox.push(message); }
          };
          Channel.prototype.connect = function () {
            if (this.connected) { return; }
            this.connected = true;
            var queued = this.outbox;
            this.outbox = [];
            for (var i = 0; i < queued.length; i++) { this.post(queued[i]); }
          };
          Channel.prototype.register = function (name, handler) {
            this.handlers[name] = handler;
            var queued = this.waiting[name] || [];
            delete this.waiting[name];
            for (var i = 0; i < queued.length; i++) { this.run(queued[i]); }
          };
          Channel.prototype.send = function (name, data, callback) {
            var id = this.next++;
            if (typeof callback === "function") { this.callbacks[id] = callback; }
            this.post({ kind: "call", name: String(name), data: data, id: id });
          };
          Channel.prototype.ping = function (callback) {
            var self = this;
            return new Promise(function (resolve) {
              self.send("_ping", {}, function (results) {
                if (typeof callback === "function") { callback(results); }
                resolve(results);
              });
            });
          };
          Channel.prototype.restyle = function (style, callback) {
            if (typeof callback === "function") { callback(); }
            return Promise.resolve([]);
          };
          Channel.prototype.run = function (call) {
            var self = this;
            var handler = call.name === "_ping" ? function () { return true; } : this.handlers[call.name];
            if (!handler) { (this.waiting[call.name] = this.waiting[call.name] || []).push(call); return; }
            Promise.resolve().then(function () { return handler(call.data); }).then(function (result) {
              self.post({ kind: "reply", id: call.id, results: [result] });
            }, function () {
              self.post({ kind: "reply", id: call.id, results: [] });
            });
          };
          Channel.prototype.receive = function (message) {
            if (message.kind === "hello") {
              this.connect();
            } else if (message.kind === "call" && typeof message.name === "string" && typeof message.id === "number") {
              this.run(message);
            } else if (message.kind === "reply") {
              var callback = this.callbacks[message.id];
              delete this.callbacks[message.id];
              if (callback) { callback(message.results); }
            }
          };
          window.addEventListener("message", function (event) {
            var message = event.data;
            if (!message || typeof message !== "object" || message[TAG] !== true) { return; }
            for (var i = 0; i < channels.length; i++) {
              if (channels[i].target === event.source && channels[i].origin === event.origin) { channels[i].receive(message); return; }
            }
          });
          function open(options, callback) {
            var url = new URL(options.url, window.location.href);
            var frame = document.createElement("iframe");
            var attributes = options.attributes || {};
            Object.keys(attributes).forEach(function (name) {
              if (name === "style") {
                Object.keys(attributes.style).forEach(function (property) { frame.style[property] = attributes.style[property]; });
              } else {
                frame.setAttribute(name, attributes[name]);
              }
            });
            url.hash = "\(marker)=1&parent=" + encodeURIComponent(window.location.origin);
            frame.src = url.href;
            (options.where || document.body).appendChild(frame);
            var channel = new Channel(frame.contentWindow, url.origin);
            return Promise.resolve(callback ? callback(channel) : channel);
          }
          var parentChannel = null;
          function getParentIframe() {
            if (parentChannel) { return parentChannel; }
            var origin = new URLSearchParams(window.location.hash.slice(1)).get("parent");
            if (!origin || window.parent === window) { throw new Error("Flint's gapi: this page was not opened by gapi.iframes"); }
            parentChannel = new Channel(window.parent, origin);
            parentChannel.connect();
            parentChannel.post({ kind: "hello" });
            return parentChannel;
          }
          var context = { open: open, getParentIframe: getParentIframe };
          window.gapi = window.gapi || {};
          window.gapi.iframes = {
            Iframe: Channel,
            CROSS_ORIGIN_IFRAMES_FILTER: function () { return true; },
            getContext: function () { return context; }
          };
          window.gapi.load = function (features, options) {
            var callback = typeof options === "function" ? options : options && options.callback;
            setTimeout(function () { if (typeof callback === "function") { callback(); } }, 0);
          };
          var script = document.currentScript;
          var onload = script && script.src ? new URL(script.src).searchParams.get("onload") : null;
          if (onload && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(onload)) {
            setTimeout(function () { if (typeof window[onload] === "function") { window[onload](); } }, 0);
          }
        })();

        """
}
