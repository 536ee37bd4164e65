import { importStatement, previewStatement } from "~/features/received-payments/received-payments.server";
import { linkByAccount } from "~/features/reconciliation/receipts.server";
import { staff } from "~/lib/actor";
import { requireAdminApi } from "~/lib/admin.server";
import { jsonApi } from "~/lib/api.server";
import { env } from "~/lib/env.server";
import { clientAddress, HttpError, jsonResponse, readBodyText } from "~/lib/http.server";

/** A statement of tens of thousands of rows is a few MB. */
const MAX_BYTES = 8 * 1024 * 1024;

/**
 * POST /api/mpesa_statements.php (admin): the CSV statement exported from the M-PESA business
 * portal as the body (Content-Type: text/csv). ?dryRun=1 previews it. Answers
 * {ok, rows, added, known, skipped, matched}; a malformed file is a 400 naming its line, and
 * nothing is imported.
 */
const api = jsonApi({
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const type = request.headers.get("content-type") ?? "";
    if (!/^text\/(csv|plain)\b/i.test(type)) throw new HttpError(415, "Send the statement as CSV text (Content-Type: text/csv).");
    const csv = await readBodyText(request, MAX_BYTES);
    if (!csv.trim()) throw new HttpError(400, "The statement is empty.");
    const dryRun = new URL(request.url).searchParams.get("dryRun") === "1";
    const shortcode = env().mpesaShortcode;
    const result = dryRun
      ? await previewStatement(context.db, csv, shortcode)
      : await importStatement(context.db, csv, shortcode, staff(clientAddress(context)));
    if (!dryRun) await linkByAccount(context.db);
    return jsonResponse({
      ok: true,
      dryRun,
      rows: result.rows,
      added: result.added,
      known: result.known,
      skipped: result.skipped.length,
      skippedRows: result.skipped.slice(0, 200),
      matched: result.matched,
    });
  },
});
export const loader = api.loader;
export const action = api.action;
