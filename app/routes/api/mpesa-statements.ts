import { importStatement, previewStatement } from "~/features/received-payments/received-payments.server";
import { statementSource } from "~/features/received-payments/statement-file.server";
import type { StatementSource } from "~/features/received-payments/statement";
import { afterPayments } from "~/features/reconciliation/auto-approve.server";
import { linkByAccount } from "~/features/reconciliation/receipts.server";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { env } from "~/lib/server/env.server";
import { clientAddress, HttpError, jsonResponse, readBodyBytes, readBodyText } from "~/lib/http/http.server";
import { readForm } from "~/lib/forms/submission.server";

/** A statement of tens of thousands of rows is a few MB. */
const MAX_BYTES = 8 * 1024 * 1024;
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * The statement a request carries: CSV text (Content-Type: text/csv), an .xlsx file as the body
 * (its own Content-Type, or application/octet-stream), or a form upload (multipart/form-data,
 * the file in field `statement`). CSV and .xlsx are told apart by the file's first bytes.
 */
async function statementOf(request: Request): Promise<StatementSource> {
  const type = request.headers.get("content-type") ?? "";
  let source: StatementSource;
  if (/^text\/(csv|plain)\b/i.test(type)) source = await readBodyText(request, MAX_BYTES);
  else if (type.toLowerCase().startsWith(XLSX_TYPE) || /^application\/octet-stream\b/i.test(type)) {
    source = statementSource(await readBodyBytes(request, MAX_BYTES));
  } else if (/^multipart\/form-data\b/i.test(type)) {
    const file = (await readForm(request, MAX_BYTES + 64 * 1024)).get("statement");
    if (!(file instanceof File)) throw new HttpError(400, "Send the statement file in the form field 'statement'.");
    source = statementSource(new Uint8Array(await file.arrayBuffer()));
  } else {
    throw new HttpError(
      415,
      `Send the statement as CSV text (Content-Type: text/csv), as an .xlsx file (Content-Type: ${XLSX_TYPE}), or as a form upload (multipart/form-data, field 'statement').`,
    );
  }
  if (typeof source === "string" ? !source.trim() : source.xlsx.byteLength === 0) throw new HttpError(400, "The statement is empty.");
  return source;
}

/**
 * POST /api/mpesa_statements.php (admin): the statement exported from the M-PESA business
 * portal, CSV or .xlsx. ?dryRun=1 previews it. Answers {ok, rows, added, known, skipped,
 * matched, shortcode, coversFrom, coversTo, periodSource, periodNote, reversals}; a malformed
 * file, or one for another number or person, is a 400 saying why (naming the line), and nothing
 * is imported.
 */
const api = jsonApi({
  POST: async ({ request, url, context }) => {
    await requireAdminApi(request, context);
    const source = await statementOf(request);
    const dryRun = url.searchParams.get("dryRun") === "1";
    const shortcodes = env().mpesaShortcodes;
    const result = dryRun
      ? await previewStatement(context.db, source, shortcodes)
      : await importStatement(context.db, source, shortcodes, staff(clientAddress(context)));
    // Orders the statement paid by their reference as the account number count as matched too.
    const byAccount = dryRun ? [] : await linkByAccount(context.db);
    if (!dryRun) afterPayments();
    return jsonResponse({
      ok: true,
      dryRun,
      rows: result.rows,
      added: result.added,
      known: result.known,
      skipped: result.skipped.length,
      skippedRows: result.skipped.slice(0, 200),
      matched: result.matched + byAccount.length,
      shortcode: result.shortcode,
      coversFrom: result.coversFrom,
      coversTo: result.coversTo,
      periodSource: result.periodSource,
      periodNote: result.periodNote,
      reversals: result.reversals.slice(0, 200),
    });
  },
});
export const loader = api.loader;
export const action = api.action;
