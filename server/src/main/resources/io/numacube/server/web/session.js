// The login session of the pivot and placement pages (serve --auth-file, logged in through login.html). Loaded before
// the page's own script, it wraps fetch: a same-origin request that may change state (not GET or HEAD) waits for
// the session's CSRF token (GET /v1/session) and carries it in X-CSRF-Token, which the server requires of every such
// request made with the session cookie; a 401 with the session challenge (a session ended or missing) sends the
// browser to the login form, back here after. It shows the user and a "log out" button in the header's nav. Without users, or under HTTP Basic, it adds
// nothing.
"use strict";

(() => {
  const plainFetch = window.fetch.bind(window);
  let session = null;  // GET /v1/session's answer, or null until known or when not reachable

  const known = plainFetch("v1/session", { headers: { Accept: "application/json" } })
    .then((r) => r.ok ? r.json() : null)
    .then((s) => { session = s; return s; })
    .catch(() => null);

  function sameOrigin(input) {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    return url.origin === location.origin;
  }

  function toLogin() {
    location.assign("login.html?next=" + encodeURIComponent(location.pathname + location.search + location.hash));
  }

  window.fetch = async (input, init) => {
    const method = ((init && init.method) || (input instanceof Request && input.method) || "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD" && sameOrigin(input)) {
      const s = await known;
      if (s && s.csrf_token) {
        const headers = new Headers((init && init.headers) || (input instanceof Request ? input.headers : undefined));
        headers.set("X-CSRF-Token", s.csrf_token);
        init = Object.assign({}, init, { headers });
      }
    }
    const r = await plainFetch(input, init);
    if (r.status === 401 && (r.headers.get("WWW-Authenticate") || "").startsWith("Session ")) toLogin();
    return r;
  };

  async function logout() {
    await window.fetch("v1/logout", { method: "POST" });
    location.assign("login.html");
  }

  function showUser(s) {
    const nav = document.querySelector("header .nav");
    if (!nav || !s || s.via !== "session") return;
    const who = document.createElement("span");
    who.id = "user";
    who.textContent = s.user + " (" + s.role + ")";
    const out = document.createElement("button");
    out.id = "logout";
    out.type = "button";
    out.textContent = "log out";
    out.addEventListener("click", logout);
    nav.append(who, out);
  }

  document.addEventListener("DOMContentLoaded", () => known.then(showUser));
})();
