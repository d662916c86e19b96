// The reader's language. A choice (the language switch of any page, or a link of the root page)
// is remembered; the root page sends the reader on to that language, or, before any choice, to
// the first of the browser's languages the site has (the first listed, Korean, otherwise). The
// root page lists plain links to both languages, so it also works without JavaScript.
(function () {
  "use strict";
  var KEY = "incident-library.language";

  function remembered() {
    try {
      return localStorage.getItem(KEY);
    } catch (error) {
      return null; // storage refused (a private window, some pages opened from disk)
    }
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-il-alternate]") : null;
    if (!link) return;
    try {
      localStorage.setItem(KEY, link.getAttribute("data-il-alternate"));
    } catch (error) {
      // as above: the choice is simply not remembered
    }
  });

  function sendOn() {
    var choice = document.querySelector("[data-il-language-choice]");
    if (!choice || /[?&]stay\b/.test(location.search)) return;
    function linkTo(lang) {
      return lang ? choice.querySelector('a[hreflang="' + lang.split("-")[0].toLowerCase() + '"]') : null;
    }
    var link = linkTo(remembered());
    var preferred = navigator.languages || [navigator.language];
    for (var i = 0; !link && i < preferred.length; i++) link = linkTo(preferred[i]);
    link = link || choice.querySelector("a[hreflang]");
    if (link) location.replace(link.href);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sendOn);
  else sendOn();
})();
