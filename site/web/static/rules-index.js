// Filters the rules table by category, severity and framework. Same-origin, no dependencies.
(function () {
  "use strict";
  var table = document.getElementById("rules-table");
  if (!table) return;
  var cat = document.getElementById("filter-category");
  var sev = document.getElementById("filter-severity");
  var fw = document.getElementById("filter-framework");
  var count = document.getElementById("filter-count");
  var rows = table.tBodies[0].rows;
  // The filters are mirrored in the query string so a filtered view can be linked.
  var params = new URLSearchParams(location.search);
  cat.value = params.get("category") || "";
  sev.value = params.get("severity") || "";
  fw.value = params.get("framework") || "";
  function apply() {
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var ok = (!cat.value || r.dataset.category === cat.value) &&
        (!sev.value || r.dataset.severity === sev.value) &&
        (!fw.value || (" " + r.dataset.frameworks + " ").indexOf(" " + fw.value + " ") >= 0);
      r.hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = shown + " of " + rows.length + " rules";
    var q = new URLSearchParams();
    if (cat.value) q.set("category", cat.value);
    if (sev.value) q.set("severity", sev.value);
    if (fw.value) q.set("framework", fw.value);
    var s = q.toString();
    history.replaceState(null, "", s ? "?" + s : location.pathname);
  }
  [cat, sev, fw].forEach(function (el) { el.addEventListener("change", apply); });
  apply();
})();
