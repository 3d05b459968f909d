// The browser's side of translation: t("text", {name: value}) returns the text in the
// page's language, with {name} placeholders filled. Every string a player reads goes
// through t(). The catalogue for the page's language is window.LIMIT_CATALOGUE, set by
// /catalogue/<language>.js (loaded just before this script by base.html.j2); a text the
// catalogue lacks is shown in English.
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
  // A seat's label as a player reads it: a computer's level ("computer (easy)") and the
  // lobby's placeholder names ("me", "friend", "guest", "open") in the page's language; a name
  // a person typed stays as typed. seat: {kind, label} as the server sends it.
  const PLACEHOLDERS = {
    me: () => t("me"),
    friend: () => t("friend"),
    guest: () => t("guest"),
    open: () => t("open"),
  };
  window.seatWord = function (seat) {
    if (seat.kind === "computer") return t("computer ({level})", { level: t(seat.label) });
    const placeholder = Object.prototype.hasOwnProperty.call(PLACEHOLDERS, seat.label) ? PLACEHOLDERS[seat.label] : null;
    return placeholder ? placeholder() : seat.label;
  };
  // The language switch of every page: choosing a language submits its form at once (the
  // server remembers the choice in a cookie and shows the same page again); without
  // scripts, its button does the same.
  document.addEventListener("DOMContentLoaded", () => {
    const select = document.getElementById("language-select");
    const button = document.getElementById("language-button");
    if (!select || !button) return;
    button.hidden = true;
    select.addEventListener("change", () => select.form.submit());
  });
})();
