// On the root page, send readers to the library in their browser's language (Korean by default).
// The page itself lists plain links to both languages, so it also works without JavaScript.
(function () {
  var choice = document.querySelector("[data-il-language-choice]");
  if (!choice || /[?&]stay\b/.test(location.search)) return;
  var preferred = (navigator.languages && navigator.languages[0]) || navigator.language || "ko";
  var lang = /^en\b/i.test(preferred) ? "en" : "ko";
  var link = choice.querySelector('a[hreflang="' + lang + '"]');
  if (link) location.replace(link.href);
})();
