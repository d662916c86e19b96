// What Material for MkDocs' bundle expects a page to define before it runs, shipped as a file
// instead of Material's inline scripts, so the Content-Security-Policy allows no inline script
// at all (generator/outputs/csp.py). Written for this project; the names and behaviour are the
// ones the bundle calls: settings kept in localStorage under the site root's path.
(function () {
  "use strict";
  var script = document.currentScript;
  // This file is <root>/assets/theme.js, so its folder's parent is the site root, wherever the
  // site is served from (or opened from disk).
  window.__md_scope = new URL("..", script ? script.src : location.href);

  window.__md_hash = function (text) {
    var hash = 0;
    for (var i = 0; i < text.length; i++) hash = (hash << 5) - hash + text.charCodeAt(i);
    return hash;
  };

  window.__md_get = function (key, storage, scope) {
    storage = storage || localStorage;
    scope = scope || window.__md_scope;
    return JSON.parse(storage.getItem(scope.pathname + "." + key));
  };

  window.__md_set = function (key, value, storage, scope) {
    storage = storage || localStorage;
    scope = scope || window.__md_scope;
    try {
      storage.setItem(scope.pathname + "." + key, JSON.stringify(value));
    } catch (error) {
      // storage may be full or refused (a private window, a page opened from disk)
    }
  };
})();

// Run in the head, before anything is painted: the library's pages show their search controls
// only with JavaScript (html.il-js), and a page whose address asks for a view of its own (a
// query, filters, a page number: any parameter but the graph's) starts "pending", so that the
// build's unfiltered list is never painted in its place (library.css). library.js and
// matrix.js end the pending state once the view is drawn, at once when the address turns out
// to ask for nothing they know; library.css shows the page anyway if no script ever does.
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("il-js");
  var params = new URLSearchParams(location.search);
  params.delete("graph");
  if (params.toString()) root.classList.add("il-pending");
})();
