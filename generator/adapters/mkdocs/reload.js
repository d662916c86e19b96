// Live reload for `incidents serve`, as a file of the site's own origin: the site's
// Content-Security-Policy runs no inline script, so MkDocs' injected one never ran. The page's
// <script> tag carries the build it was served from (data-epoch); the server holds a request to
// /livereload/<epoch>/<id> until a newer build is ready (or a minute passes), then answers with
// the newest build's number, and the page reloads when that is newer than its own.
(function () {
  "use strict";
  var script = document.currentScript;
  var epoch = script ? parseInt(script.getAttribute("data-epoch"), 10) : NaN;
  if (isNaN(epoch)) return;
  var id = Date.now();
  var request = null;
  var timer = null;

  function poll() {
    stop();
    request = new XMLHttpRequest();
    request.onloadend = function () {
      if (parseFloat(this.responseText) > epoch) {
        location.reload();
      } else {
        // 200: the server's minute passed with nothing new; anything else: it is restarting.
        timer = setTimeout(poll, this.status === 200 ? 0 : 3000);
      }
    };
    request.open("GET", "/livereload/" + epoch + "/" + id);
    request.send();
  }

  function stop() {
    if (request) {
      request.onloadend = null;
      request.abort();
    }
    if (timer) clearTimeout(timer);
    request = timer = null;
  }

  function start() {
    if (document.visibilityState === "visible") poll();
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") poll();
    else stop();
  });
  window.addEventListener("pagehide", stop);
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
