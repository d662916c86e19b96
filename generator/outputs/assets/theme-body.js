// Run at the start of <body>, before the page is shown: apply the colour scheme the reader chose
// earlier (Material's palette toggle stores it), and open a tab a link points at. Shipped as a
// file for the Content-Security-Policy; see theme.js.
(function () {
  "use strict";
  var palette;
  try {
    palette = window.__md_get("__palette");
  } catch (error) {
    palette = null;
  }
  if (palette && palette.color) {
    if (palette.color.media === "(prefers-color-scheme)") {
      var light = matchMedia("(prefers-color-scheme: light)").matches;
      var input = document.querySelector(
        light
          ? "[data-md-color-media='(prefers-color-scheme: light)']"
          : "[data-md-color-media='(prefers-color-scheme: dark)']"
      );
      if (input) {
        ["media", "scheme", "primary", "accent"].forEach(function (name) {
          palette.color[name] = input.getAttribute("data-md-color-" + name);
        });
      }
    }
    Object.keys(palette.color).forEach(function (name) {
      document.body.setAttribute("data-md-color-" + name, palette.color[name]);
    });
  }
  var target = document.getElementById(location.hash.slice(1));
  if (target && target.name && target.name.indexOf("__tabbed_") === 0) target.checked = true;
})();
