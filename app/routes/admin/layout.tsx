import { Outlet, useMatches } from "react-router";
import { loadStaffShell } from "~/routes/admin/staff.server";
import { AdminSignIn } from "~/features/admin/components/admin-sign-in";
import { StaffHeader } from "~/features/admin/components/staff-header";
import type { StaffHandle } from "~/features/admin/staff-screen";
import adminCss from "~/styles/admin.css?url";
import staffTouchCss from "~/styles/staff-touch.css?url";
import type { Route } from "./+types/layout";

/**
 * Every staff screen sits under this pathless layout (app/routes.ts): it checks the session,
 * shows the sign-in form to anyone signed out, and draws the staff shell. The screens' own
 * loaders return nothing without a session (staffOnly), since loaders run side by side.
 */

// root.tsx leaves out the public header and footer for routes with this handle.
export const handle = { staffShell: true };

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: adminCss },
  { rel: "stylesheet", href: staffTouchCss },
];

// Staff pages show orders, addresses and the log: never kept by a browser or a proxy.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request, url, context }: Route.LoaderArgs) {
  return loadStaffShell(request, url, context);
}

// Asked again on every navigation and after every form: a session can end in another tab.
export const shouldRevalidate = () => true;

export default function StaffLayout({ loaderData: shell }: Route.ComponentProps) {
  const screen = (useMatches().at(-1)?.handle ?? {}) as Partial<StaffHandle>;
  return (
    <>
      <StaffHeader signedIn={shell.signedIn} wrongKeys={shell.signedIn ? shell.wrongKeys : null} />
      <main id="main" className="section admin-screen">
        <div className="container staff-container">
          <h1>{screen.heading ?? screen.title}</h1>
          {shell.signedIn || screen.signIn ? (
            <Outlet />
          ) : (
            <div className="narrow">
              <AdminSignIn returnTo={shell.returnTo} />
            </div>
          )}
        </div>
      </main>
    </>
  );
}
