import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  // Public pages
  index("routes/site/home.tsx"),
  route("about", "routes/site/about.tsx"),
  route("join", "routes/site/join.tsx"),
  route("join/thanks", "routes/site/join-thanks.tsx"),
  route("privacy", "routes/site/privacy.tsx"),
  route("vespers", "routes/site/vespers.tsx"),
  route("ministry", "routes/site/ministry.tsx"),
  route("newsletter", "routes/site/newsletter.tsx"),
  route("unsubscribe", "routes/site/unsubscribe.tsx"),
  route("event", "routes/event/event.tsx"),
  route("event/previews", "routes/event/previews.tsx"),
  route("badges", "routes/badges/badges.tsx"),
  route("open/badges/:file", "routes/badges/badge-image.ts"),
  route("share/:file", "routes/share/badge-share.ts"),
  route("event/previews/image.png", "routes/event/preview-image.ts"),
  route("merchandise", "routes/merch/store.tsx"),
  route("merchandise/admin", "routes/merch/admin.tsx"),
  route("share/merchandise/:file", "routes/share/merch-share.ts"),
  route("data/merch.json", "routes/api/merch-data.ts"),
  route("merch", "routes/site/merch-redirect.tsx", { id: "merch-redirect" }),
  route("merch/admin", "routes/site/merch-redirect.tsx", { id: "merch-admin-redirect" }),

  // Staff
  route("admin", "routes/admin/index.tsx"),
  route("admin/badge-orders", "routes/admin/badge-orders.tsx"),
  route("admin/merch-orders", "routes/admin/merch-orders.tsx"),
  route("admin/badge-orders/:id/:file", "routes/admin/badge-order-asset.ts"),

  // The JSON calls existing clients depend on (spec section 7)
  route("api/send.php", "routes/api/send.ts"),
  route("api/subscribe.php", "routes/api/subscribe.ts"),
  route("api/subscribers.php", "routes/api/subscribers.ts"),
  route("api/track.php", "routes/api/track.ts"),
  route("api/activity.php", "routes/api/activity.ts"),
  route("api/badge_orders.php", "routes/api/badge-orders.ts"),
  route("api/generate_badge_share.php", "routes/api/generate-badge-share.ts"),
  route("api/merch.php", "routes/api/merch.ts"),
  route("api/generate_merch_share.php", "routes/api/generate-merch-share.ts"),
  route("api/merch_orders.php", "routes/api/merch-orders.ts"),

  route("api/*", "routes/api/not-found.ts"),
  route("*", "routes/site/not-found.tsx"),
] satisfies RouteConfig;
