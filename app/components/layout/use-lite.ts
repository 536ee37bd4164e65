import { useRouteLoaderData } from "react-router";

/** True on a page sent in Lite mode (no scripts at all; see app/lib/core/data-saver.ts). */
export const useLite = () => (useRouteLoaderData("root") as { lite?: boolean } | undefined)?.lite === true;
