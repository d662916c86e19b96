/* The case page's copy buttons (the citation, its BibTeX). The page renders them `hidden`:
   without this script they could do nothing, so they appear only once it runs. Each copies the
   code in the block its data-il-copy names (a wrapper: Material's script renames the ids of
   <pre> elements) and says in the status beside it (role="status", so screen readers hear it
   too) whether that worked.

   The Clipboard API needs a secure context and, in some browsers, a permission; where it is
   missing or refuses (some browsers on file://), the block's text is selected and copied with
   execCommand("copy"), and if that fails too it stays selected for the reader to copy. */
(function () {
  "use strict";

  var STATUS_MS = 4000; // how long "Copied" stays; cleared so a second copy is announced again

  function select(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return selection;
  }

  function copyBySelection(node) {
    var selection = select(node);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (e) {
      copied = false;
    }
    if (copied) selection.removeAllRanges();
    return copied;
  }

  function copy(node, done) {
    var clipboard = navigator.clipboard;
    if (clipboard && typeof clipboard.writeText === "function") {
      clipboard.writeText(node.textContent).then(
        function () {
          done(true);
        },
        function () {
          done(copyBySelection(node));
        }
      );
    } else {
      done(copyBySelection(node));
    }
  }

  function setUp(button) {
    var block = document.getElementById(button.getAttribute("data-il-copy"));
    var target = block && block.querySelector("code");
    var status = button.parentNode.querySelector('[role="status"]');
    if (!target || !status) return;
    var timer = 0;
    button.addEventListener("click", function () {
      copy(target, function (copied) {
        window.clearTimeout(timer);
        status.textContent = button.getAttribute(copied ? "data-il-copied" : "data-il-copy-failed");
        status.className = "il-copy__status" + (copied ? "" : " il-copy__status--failed");
        if (copied) {
          timer = window.setTimeout(function () {
            status.textContent = "";
          }, STATUS_MS);
        }
      });
    });
    button.hidden = false;
  }

  var buttons = document.querySelectorAll("button[data-il-copy]");
  for (var i = 0; i < buttons.length; i++) setUp(buttons[i]);
})();
