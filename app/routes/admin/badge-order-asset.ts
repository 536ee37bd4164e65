import { readOrderAsset } from "~/features/event-badges/badge-orders.server";
import { storedImageType } from "~/features/event-badges/portrait.server";
import { isAdminSession } from "~/features/admin/staff-auth.server";
import { onRefusal } from "~/lib/http/http.server";
import type { Route } from "./+types/badge-order-asset";

// New orders keep portrait.jpg and poster.jpg; orders stored before, portrait.png and poster.png.
// Either name reaches the order's picture, whichever way it is stored.
const FILES = {
  "portrait.jpg": "portrait",
  "portrait.png": "portrait",
  "badge.png": "badge",
  "poster.jpg": "poster",
  "poster.png": "poster",
} as const;

/** An order's portrait, badge or poster: for signed-in staff, or with the order's random token. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const kind = Object.hasOwn(FILES, params.file) ? FILES[params.file as keyof typeof FILES] : undefined;
  if (!kind || !/^BO-[0-9A-Z]{6}$/.test(params.id)) return new Response("Not found", { status: 404 });
  const token = url.searchParams.get("t");
  return onRefusal(
    async () => {
      const bytes = await readOrderAsset(context.db, params.id, kind, token, await isAdminSession(context.db, request));
      const type = storedImageType(bytes);
      return new Response(new Uint8Array(bytes), {
        headers: {
          "Content-Type": type,
          "Cache-Control": "private, no-store",
          "Content-Disposition": `inline; filename="${params.id}-${kind}.${type === "image/jpeg" ? "jpg" : "png"}"`,
        },
      });
    },
    (http) => new Response(http.message, { status: http.status }),
  );
}
