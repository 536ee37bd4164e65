import { isRouteErrorResponse } from "react-router";
import type { Reply } from "../core/forms";

/**
 * The one network-safe client action: with JavaScript, a form's POST goes through here, and a
 * dropped connection (or an error page instead of a reply) becomes a Reply the form can word,
 * never an error screen. Redirects still happen. `failed` words each case for the page.
 */
export async function networkSafe<R extends Reply<any>>(
  serverAction: () => Promise<R>,
  failed: (network: boolean) => Reply<any> = (network) => (network ? { status: "error", network } : { status: "error" }),
): Promise<R> {
  try {
    return await serverAction();
  } catch (e) {
    if (e instanceof Response) throw e;
    return failed(!isRouteErrorResponse(e)) as R;
  }
}
