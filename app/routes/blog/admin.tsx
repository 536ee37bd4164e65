import { useEffect, useState } from "react";
import { Link } from "react-router";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { blogEditorAction, loadBlogEditorScreen } from "~/routes/blog/blog-editor-page.server";
import { BlogPostEditor } from "~/features/blog/admin/blog-post-editor";
import { staffOnly } from "~/features/admin/staff-auth.server";
import blogAdminCss from "~/styles/blog-admin.css?url";
import type { Route } from "./+types/admin";

export const handle: StaffHandle = { page: "blogs.admin", title: "Blog editor", description: "Edit the blog's posts." };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: blogAdminCss }];

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, () => loadBlogEditorScreen(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  return blogEditorAction(request, context);
}

export default function BlogAdmin({ loaderData, actionData }: Route.ComponentProps) {
  // The form is mounted afresh only after this screen's own save succeeds: refreshes of the
  // notify counts (or an edit elsewhere) never throw away what is being typed.
  const version = loaderData?.version ?? "";
  const [editorKey, setEditorKey] = useState(version);
  useEffect(() => {
    if (actionData?.intent === "save" && actionData.status === "success") setEditorKey(version);
  }, [actionData, version]);
  if (!loaderData) return null;
  return (
    <div className="blog-admin">
      <p className="admin-links">
        <Link to="/blogs">View the blog</Link>
      </p>
      <BlogPostEditor
        key={editorKey}
        rows={actionData?.result?.rows ?? loaderData.rows}
        reply={actionData}
        year={loaderData.year}
        savedSlugs={loaderData.savedSlugs}
        notifications={loaderData.notifications}
      />
    </div>
  );
}
