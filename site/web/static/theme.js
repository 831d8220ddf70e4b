// Applies the reader's theme choice (the theme button in assets/site.js) before the page paints.
// Without a choice the style sheet follows the system's prefers-color-scheme.
(function () {
  "use strict";
  try {
    var t = localStorage.getItem("trainlint-theme");
    if (t === "dark" || t === "light") document.documentElement.dataset.theme = t;
  } catch (e) { /* storage blocked: follow the system */ }
})();
