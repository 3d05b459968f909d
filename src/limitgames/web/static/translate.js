// The browser's side of translation: t("text", {name: value}) returns the text in the
// page's language, with {name} placeholders filled. Every string a player reads goes
// through t(). The catalogue for the page's language is window.LIMIT_CATALOGUE when the
// server provides one (issue 13 deliver 4); without one, the English text is shown.
(function () {
  "use strict";
  window.t = function (text, values) {
    const catalogue = window.LIMIT_CATALOGUE || {};
    let out = Object.prototype.hasOwnProperty.call(catalogue, text) ? catalogue[text] : text;
    if (values) {
      out = out.replace(/\{(\w+)\}/g, (whole, name) =>
        Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
    }
    return out;
  };
})();
