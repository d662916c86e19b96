// Incident Library: the "check your cluster" block under the library's results lists the checks
// that concern the components in view. library.js draws those components (the chips in
// [data-il-top-components]) and then announces new results with an `il:results` event; this
// shows the checks whose components (data-il-check-components) meet them. Without JavaScript
// the block lists the checks for the whole library's most frequent components.
(function () {
  "use strict";

  var root = document.querySelector("[data-il-library]");
  var list = root && root.querySelector("[data-il-checks]");
  if (!list) return;
  var lead = root.querySelector("[data-il-checks-lead]");

  function show() {
    var inView = {};
    root.querySelectorAll("[data-il-top-components] [data-term]").forEach(function (chip) {
      inView[chip.getAttribute("data-term")] = true;
    });
    var shown = 0;
    list.querySelectorAll("[data-il-check-components]").forEach(function (item) {
      var ids = item.getAttribute("data-il-check-components").split(" ");
      var concerns = ids.some(function (id) { return inView[id]; });
      item.hidden = !concerns;
      if (concerns) shown += 1;
    });
    list.hidden = shown === 0;
    if (lead) lead.hidden = shown === 0;
  }

  root.addEventListener("il:results", show);
})();
