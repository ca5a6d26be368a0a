/* A stand-in for gapi's loader (https://apis.google.com/js/api.js) for scripts/websdk-browser-test.py, which serves
   it over TLS at apis.google.com through Chromium's --host-resolver-rules. It implements only what the Firebase JS SDK
   and Flint's iframe page use, with the semantics they rely on, over its own postMessage protocol (real gapi's wire
   protocol is not reproduced; both sides here load this file):
   - the loader calls window[<onload>] (the `onload` parameter of its own URL) once loaded;
   - gapi.load("gapi.iframes", {callback} | callback) calls back;
   - gapi.iframes.getContext().open({url, where, attributes}, callback) adds the iframe (the parent's origin in the
     URL's fragment, as gapi passes it) and resolves with what `callback(iframe)` resolves with;
   - iframe.ping(callback) answers once the child has connected; iframe.restyle() does nothing;
   - getContext().getParentIframe() in the child connects to the parent;
   - register(name, handler, filter) / send(name, data, callback, filter) on either side: the other side's handler
     runs, and `callback` gets an array of its results (one per frame; a returned promise is awaited); a call that
     arrives before its handler is registered waits for it;
   - gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER is a filter that accepts every frame. */
(function () {
  "use strict";
  var TAG = "__gapiStandIn";
  var channels = [];

  function Channel(target, origin) {
    this.target = target;
    this.origin = origin;
    this.connected = false;
    this.outbox = [];
    this.handlers = {};
    this.pending = {};
    this.callbacks = {};
    this.next = 1;
    channels.push(this);
  }
  Channel.prototype.post = function (message) {
    message[TAG] = true;
    if (this.connected || message.kind === "hello") {
      this.target.postMessage(message, this.origin);
    } else {
      this.outbox.push(message);
    }
  };
  Channel.prototype.connect = function () {
    if (this.connected) { return; }
    this.connected = true;
    var waiting = this.outbox;
    this.outbox = [];
    for (var i = 0; i < waiting.length; i++) { this.post(waiting[i]); }
  };
  Channel.prototype.register = function (name, handler) {
    this.handlers[name] = handler;
    var waiting = this.pending[name] || [];
    delete this.pending[name];
    for (var i = 0; i < waiting.length; i++) { this.run(waiting[i]); }
  };
  Channel.prototype.send = function (name, data, callback) {
    var id = this.next++;
    if (callback) { this.callbacks[id] = callback; }
    this.post({ kind: "call", name: name, data: data, id: id });
  };
  Channel.prototype.ping = function (callback) {
    var self = this;
    return new Promise(function (resolve) {
      self.send("_ping", {}, function (results) {
        if (callback) { callback(results); }
        resolve(results);
      });
    });
  };
  Channel.prototype.restyle = function (style, callback) {
    if (callback) { callback(); }
    return Promise.resolve([]);
  };
  Channel.prototype.run = function (call) {
    var self = this;
    var handler = call.name === "_ping" ? function () { return true; } : this.handlers[call.name];
    if (!handler) {
      (this.pending[call.name] = this.pending[call.name] || []).push(call);
      return;
    }
    Promise.resolve().then(function () { return handler(call.data); }).then(function (result) {
      self.post({ kind: "reply", id: call.id, results: [result] });
    }, function () {
      self.post({ kind: "reply", id: call.id, results: [] });
    });
  };
  Channel.prototype.receive = function (message) {
    if (message.kind === "hello") {
      this.connect();
    } else if (message.kind === "call") {
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
      var channel = channels[i];
      if (channel.target === event.source && channel.origin === event.origin) {
        channel.receive(message);
        return;
      }
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
    frame.src = url.href.split("#")[0] + "#parent=" + encodeURIComponent(window.location.origin);
    (options.where || document.body).appendChild(frame);
    var channel = new Channel(frame.contentWindow, url.origin);
    channel.frame = frame;
    return Promise.resolve(callback ? callback(channel) : channel);
  }

  var parentChannel = null;
  function getParentIframe() {
    if (parentChannel) { return parentChannel; }
    var fragment = new URLSearchParams(window.location.hash.slice(1));
    var origin = fragment.get("parent");
    if (!origin || window.parent === window) { throw new Error("gapi stand-in: not opened by gapi.iframes"); }
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
    setTimeout(function () { if (callback) { callback(); } }, 0);
  };

  var script = document.currentScript;
  var onload = script ? new URL(script.src).searchParams.get("onload") : null;
  if (onload) {
    setTimeout(function () { if (typeof window[onload] === "function") { window[onload](); } }, 0);
  }
})();
