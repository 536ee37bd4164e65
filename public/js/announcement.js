// The /vespers announcement (app/components/site/announcement-dialog.tsx), opened 300 ms after
// load by this small script of its own, so that showing it does not wait for (or start) the
// page's framework scripts (docs/decisions/0100). Closed by 'Maybe Later' (a form of method
// "dialog"), Escape, the backdrop or 'View Event Details', it stays away for a week on this
// browser (kept in the browser, so the cached page is the same for everyone).
(function () {
  var QUIET_MS = 7 * 86400000;
  function start() {
    var dialog = document.getElementById("announcement");
    if (!dialog || typeof dialog.showModal !== "function") return;
    var key = "announcement-closed:" + (dialog.getAttribute("data-title") || "");
    var remember = function () {
      try {
        window.localStorage.setItem(key, String(Date.now()));
      } catch (e) {
        // storage blocked: nothing to remember with
      }
    };
    try {
      var at = Number(window.localStorage.getItem(key));
      if (at > 0 && Date.now() - at < QUIET_MS) return;
    } catch (e) {
      // storage blocked: show it
    }
    var leaving = false;
    window.addEventListener("pagehide", function () {
      leaving = true; // the page is going away: that is not the visitor closing it
    });
    dialog.addEventListener("close", function () {
      if (!leaving) remember();
    });
    dialog.addEventListener("click", function (e) {
      if (e.target === dialog) dialog.close(); // a click on the dialog itself is on its backdrop
      else if (e.target instanceof Element && e.target.closest("a")) remember(); // before the page is left
    });
    window.setTimeout(function () {
      if (!dialog.open && dialog.isConnected) dialog.showModal();
    }, Number(dialog.getAttribute("data-delay")) || 300);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
