import { Link } from "react-router";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { loadMerchEditorScreen, merchEditorAction } from "~/routes/merch/merch-editor-page.server";
import { MerchItemEditor } from "~/features/merch/admin/merch-item-editor";
import { staffOnly } from "~/features/admin/staff-auth.server";
import merchAdminCss from "~/styles/merch-admin.css?url";
import type { Route } from "./+types/admin";

export const handle: StaffHandle = {
  page: "merch.admin",
  title: "Merchandise editor",
  heading: "Merchandise",
  description: "Edit the store's items.",
};

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: merchAdminCss }];

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, () => loadMerchEditorScreen(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  return merchEditorAction(request, context);
}

export default function MerchAdmin({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData) return null;
  return (
    <div className="merch-admin">
      <p className="admin-links">
        <Link to="/merchandise">View the store</Link>
      </p>
      {/* A new version (a save) mounts the form afresh; a refused save keeps what was typed. */}
      <MerchItemEditor key={loaderData.version} rows={actionData?.result?.rows ?? loaderData.rows} reply={actionData} />
    </div>
  );
}
