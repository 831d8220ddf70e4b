// The site's small behaviours, on every page: the theme button, the mobile menu, copy buttons on
// code blocks, the search over rules, frameworks and guide pages, and, on the landing page,
// loading the checker only once it is used. Same-origin, no dependencies.
(function () {
  "use strict";
  var root = document.body.dataset.root || "";
  var $ = function (id) { return document.getElementById(id); };

  // ---- theme ----
  var themeBtn = $("theme-toggle");
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : { matches: false };
  function effective() { return document.documentElement.dataset.theme || (dark.matches ? "dark" : "light"); }
  function showTheme() {
    var d = effective() === "dark";
    themeBtn.setAttribute("aria-pressed", String(d));
    themeBtn.textContent = "Dark theme";
    themeBtn.title = d ? "Switch to the light theme" : "Switch to the dark theme";
  }
  if (themeBtn) {
    themeBtn.addEventListener("click", function () {
      var t = effective() === "dark" ? "light" : "dark";
      document.documentElement.dataset.theme = t;
      try { localStorage.setItem("trainlint-theme", t); } catch (e) { /* not kept */ }
      showTheme();
    });
    showTheme();
  }

  // ---- mobile menu ----
  var navBtn = $("nav-toggle");
  if (navBtn) {
    navBtn.addEventListener("click", function () {
      var open = document.body.classList.toggle("nav-open");
      navBtn.setAttribute("aria-expanded", String(open));
    });
  }

  // ---- copy buttons ----
  var pres = document.querySelectorAll("main pre");
  for (var i = 0; i < pres.length; i++) addCopy(pres[i]);
  function addCopy(pre) {
    if (pre.closest(".checker")) return;
    var wrap = document.createElement("div");
    wrap.className = "code-wrap";
    pre.parentNode.insertBefore(wrap, pre);
    wrap.appendChild(pre);
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy";
    b.textContent = "Copy";
    b.setAttribute("aria-label", "Copy this code");
    b.addEventListener("click", function () {
      var text = (pre.querySelector("code") || pre).innerText;
      var done = function (ok) {
        b.textContent = ok ? "Copied" : "Copy failed";
        setTimeout(function () { b.textContent = "Copy"; }, 1500);
      };
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
      else done(false);
    });
    wrap.appendChild(b);
  }

  // ---- search ----
  var box = $("site-search"), list = $("search-results"), count = $("search-count");
  var index = null, loading = null;
  function load() {
    if (!loading) {
      loading = fetch(box.dataset.index).then(function (r) { return r.json(); }).then(function (ix) { index = ix; });
    }
    return loading;
  }
  function search() {
    var q = box.value.trim().toLowerCase();
    list.textContent = "";
    if (!q) { list.hidden = true; count.textContent = ""; return; }
    var terms = q.split(/\s+/);
    var hits = index.filter(function (e) {
      var hay = (e.t + " " + e.s + " " + e.k).toLowerCase();
      return terms.every(function (t) { return hay.indexOf(t) >= 0; });
    });
    // Exact code or name matches first (TL202, eval-batch-...).
    hits.sort(function (a, b) { return (b.t.toLowerCase().indexOf(q) === 0) - (a.t.toLowerCase().indexOf(q) === 0); });
    hits.slice(0, 12).forEach(function (e) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + e.u;
      var k = document.createElement("span");
      k.className = "kind";
      k.textContent = e.k;
      var s = document.createElement("span");
      s.className = "sub";
      s.textContent = e.s;
      a.append(k, e.t, s);
      li.append(a);
      list.append(li);
    });
    list.hidden = hits.length === 0;
    count.textContent = hits.length === 0 ? "no match" : hits.length + (hits.length === 1 ? " match" : " matches");
  }
  if (box) {
    box.addEventListener("input", function () { load().then(search); });
    box.addEventListener("focus", load, { once: true });
    box.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" && !list.hidden) { e.preventDefault(); list.querySelector("a").focus(); }
      if (e.key === "Escape") { box.value = ""; search(); }
      if (e.key === "Enter" && !list.hidden) { e.preventDefault(); list.querySelector("a").click(); }
    });
    list.addEventListener("keydown", function (e) {
      var a = document.activeElement, li = a && a.parentNode;
      if (e.key === "ArrowDown" && li.nextSibling) { e.preventDefault(); li.nextSibling.firstChild.focus(); }
      if (e.key === "ArrowUp") { e.preventDefault(); (li.previousSibling ? li.previousSibling.firstChild : box).focus(); }
      if (e.key === "Escape") { box.focus(); list.hidden = true; }
    });
    document.addEventListener("click", function (e) { if (!e.target.closest(".search")) list.hidden = true; });
  }

  // ---- the landing page's checker: its module (about 1 MB) loads on first use ----
  var checker = $("checker");
  if (checker && checker.dataset.lazy === "true") {
    var started = false;
    var start = function (e) {
      if (started || (e && e.target.closest && e.target.closest("a"))) return;
      started = true;
      if (e && e.target.id === "tl-start") checker.dataset.focus = "true";
      $("tl-status").textContent = "Loading the checker…";
      var boot = document.createElement("script");
      boot.src = root + "assets/boot.js";
      boot.dataset.wasm = root + "trainlint.wasm";
      [root + "wasm_exec.js", boot, root + "assets/checker.js"].forEach(function (s) {
        var el = s;
        if (typeof s === "string") { el = document.createElement("script"); el.src = s; }
        el.async = false; // run in this order
        document.body.appendChild(el);
      });
    };
    ["pointerdown", "keydown", "dragover", "change"].forEach(function (t) { checker.addEventListener(t, start); });
    // A file dropped before the editor exists must not make the browser leave the page for it.
    checker.addEventListener("dragover", function (e) { if (!window.trainlint) e.preventDefault(); });
    checker.addEventListener("drop", function (e) {
      if (window.trainlint) return;
      e.preventDefault();
      $("tl-status").textContent = "Loading the checker… drop the file again in a moment.";
    });
  }
  var examples = $("tl-examples");
  if (examples) {
    examples.addEventListener("change", function () {
      if (examples.value) location.hash = examples.value;
    });
  }
})();
