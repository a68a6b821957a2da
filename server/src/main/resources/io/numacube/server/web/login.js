// The login form of `numacube serve --auth-file`: posts {"user", "password"} as JSON to POST /v1/login (which sets
// the HttpOnly session cookie) and goes on to ?next= (a path of this server only) or the pivot page. A refusal is
// shown as the server words it, which never says whether the user or the password was wrong.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  /**
   * Where to go after the login: the asked-for path of this server, never another origin. The path is resolved as the
   * browser will resolve it (which drops tabs and newlines, so "/<TAB>/evil.example" is "//evil.example") and kept
   * only when it stays on this origin.
   */
  function next() {
    const n = new URLSearchParams(location.search).get("next");
    if (!n || !n.startsWith("/")) return "/";
    let url;
    try {
      url = new URL(n, location.origin);
    } catch {
      return "/";   // "//[" and the like: no URL at all
    }
    return url.origin === location.origin ? url.pathname + url.search + url.hash : "/";
  }

  function show(text) {
    $("message").textContent = text;
    $("message").hidden = false;
  }

  async function login(event) {
    event.preventDefault();
    $("submit").disabled = true;
    $("message").hidden = true;
    try {
      const r = await fetch("v1/login", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ user: $("user").value, password: $("password").value }),
      });
      if (r.ok) {
        location.replace(next());
        return;
      }
      const body = await r.json().catch(() => ({}));
      show((body.error && body.error.message) || "login failed: HTTP " + r.status);
      $("password").value = "";
      $("password").focus();
    } catch (e) {
      show("the server did not answer: " + e.message);
    } finally {
      $("submit").disabled = false;
    }
  }

  // A browser that comes from another site's link does not send the SameSite=Strict cookie with that navigation, so
  // the server sent it here; this same-origin request does send it: a live session goes on at once.
  async function alreadyLoggedIn() {
    const r = await fetch("v1/session", { headers: { Accept: "application/json" } }).catch(() => null);
    const s = r && r.ok ? await r.json() : null;
    if (s && s.via === "session") location.replace(next());
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("login").addEventListener("submit", login);
    alreadyLoggedIn();
  });
})();
