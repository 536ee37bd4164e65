// The public pages the measurement commands visit (`npm run bench`, `npm run lighthouse`).
// Add a page here when it ships; both commands pick it up.
export const PAGES = [
  "/",
  "/about",
  "/join",
  "/join/thanks",
  "/privacy",
  "/vespers",
  "/ministry",
  "/event",
  "/event/supporters",
  "/badges",
  "/badges/verify",
  "/badges/verify/b5692",
  "/merchandise",
  "/blogs",
  "/blogs/campus-mission-week",
];
