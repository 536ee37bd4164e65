import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  type LinksFunction,
} from "react-router";
import type { Route } from "./+types/root";
import { SiteFooter } from "./components/layout/site-footer";
import { SiteHeader } from "./components/layout/site-header";
import { useLite } from "./components/layout/use-lite";
import { LiteNotice } from "./components/layout/lite-notice";
import { useInlineStylesCleanup } from "./components/layout/inline-styles";
import { PageViewBeacon } from "./components/layout/page-view-beacon";
import { prefersLite } from "./lib/core/data-saver";
import { hydrates } from "./lib/core/hydration";
import { env } from "./lib/server/env.server";
import { site } from "./lib/core/site";
import stylesUrl from "./styles/site.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesUrl },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/brand/logo-mark.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/brand/apple-touch-icon.png" },
];

export function loader({ request }: Route.LoaderArgs) {
  return { publicUrl: env().publicUrl, lite: prefersLite(request.headers) };
}

// Nothing in the root loader changes after start-up; Lite mode changes with a full page load.
export const shouldRevalidate = () => false;

export function Layout({ children }: { children: React.ReactNode }) {
  const lite = useLite();
  const matches = useMatches();
  // Decided on the server only: a page that did hydrate keeps its router (and scroll
  // restoration) when it navigates in-app to a page that would have been sent without scripts.
  const scripts = !lite && (typeof document !== "undefined" || hydrates(matches));
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={site.themeColor} />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        {scripts ? <ScrollRestoration /> : null}
        {scripts ? <Scripts /> : null}
      </body>
    </html>
  );
}

/** Staff screens draw their own slim shell (routes/admin/layout.tsx): no public menu or footer. */
const hasOwnShell = (matches: ReturnType<typeof useMatches>) =>
  matches.some((m) => (m.handle as { staffShell?: boolean } | undefined)?.staffShell);

export default function App() {
  const ownShell = hasOwnShell(useMatches());
  useInlineStylesCleanup();
  return (
    <>
      <LiteNotice />
      {ownShell ? null : <SiteHeader />}
      {ownShell ? (
        <Outlet />
      ) : (
        <main id="main">
          <Outlet />
        </main>
      )}
      {ownShell ? null : <SiteFooter />}
      <PageViewBeacon />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // 503: the database is away for a moment (app/server/database-answers.server.ts says so in the page's words).
  const away = isRouteErrorResponse(error) && status === 503 && typeof error.data === "string" && error.data !== "";
  const title = notFound ? "Page not found" : away ? "Back in a moment" : status === 500 ? "Something went wrong" : `Error ${status}`;
  const message = notFound
    ? "We could not find that page. It may have moved, or the link may be mistyped."
    : away || (isRouteErrorResponse(error) && status < 500)
      ? String(error.data || "That request could not be completed.")
      : "Sorry, something went wrong on our side. Please try again in a moment.";
  const stack = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <>
      <title>{`${title} | ${site.name}`}</title>
      <meta name="robots" content="noindex" />
      <LiteNotice />
      <SiteHeader />
      <main id="main" className="container narrow error-page">
        <p className="eyebrow">{status}</p>
        <h1>{title}</h1>
        <p>{message}</p>
        <p className="actions">
          <a className="button" href="/">
            Go to the home page
          </a>
          <a className="button button-ghost" href={`mailto:${site.contactEmail}`}>
            Email us
          </a>
        </p>
        {stack ? <pre className="stack">{stack}</pre> : null}
      </main>
      <SiteFooter />
    </>
  );
}
