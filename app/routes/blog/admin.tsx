import { useEffect, useState } from "react";
import { Link } from "react-router";
import { AdminSignIn, AdminSignOut } from "~/features/admin/components/admin-sign-in";
import { blogEditorAction, loadBlogEditorScreen } from "~/features/blog/admin/blog-admin.server";
import { EDITOR_PATH } from "~/features/blog/admin/blog-admin-screen";
import { BlogPostEditor } from "~/features/blog/admin/blog-post-editor";
import { pageMeta } from "~/lib/meta";
import adminCss from "~/styles/admin.css?url";
import blogAdminCss from "~/styles/blog-admin.css?url";
import type { Route } from "./+types/admin";

export const handle = { page: "blogs.admin" };

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: adminCss },
  { rel: "stylesheet", href: blogAdminCss },
];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Blog editor", description: "Edit the blog's posts.", path: EDITOR_PATH, noindex: true });

export async function loader({ request }: Route.LoaderArgs) {
  return loadBlogEditorScreen(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return blogEditorAction(request, context);
}

export default function BlogAdmin({ loaderData, actionData }: Route.ComponentProps) {
  // The form is mounted afresh only after this screen's own save succeeds: refreshes of the
  // notify counts (or an edit elsewhere) never throw away what is being typed.
  const version = loaderData.signedIn ? loaderData.version : "";
  const [editorKey, setEditorKey] = useState(version);
  useEffect(() => {
    if (actionData?.intent === "save" && actionData.tone === "success") setEditorKey(version);
  }, [actionData, version]);
  return (
    <section className="section admin-screen blog-admin">
      <div className="container">
        <p className="admin-crumb">
          <Link to="/admin">Staff</Link>
        </p>
        <div className="admin-bar">
          <h1>Blog editor</h1>
          {loaderData.signedIn ? <AdminSignOut /> : null}
        </div>
        {loaderData.signedIn ? (
          <>
            <nav aria-label="Staff tools" className="admin-links">
              <Link to="/admin/activity">Activity</Link>
              <Link to="/admin/badge-orders">Badge orders</Link>
              <Link to="/merchandise/admin">Merchandise editor</Link>
              <Link to="/admin">All staff tools</Link>
              <Link to="/blogs">View the blog</Link>
            </nav>
            <BlogPostEditor
              key={editorKey}
              rows={actionData?.rows ?? loaderData.rows}
              reply={actionData}
              year={loaderData.year}
              savedSlugs={loaderData.savedSlugs}
              notifications={loaderData.notifications}
            />
          </>
        ) : (
          <div className="narrow">
            <AdminSignIn returnTo={loaderData.returnTo} />
          </div>
        )}
      </div>
    </section>
  );
}
