import { ConfirmBox } from "~/components/ui/confirm-box";
import { WRITTEN_TO_OUTBOX } from "~/lib/core/mail-words";
import { useEffect, useRef, useState } from "react";
import type { Reply } from "~/lib/core/forms";
import { useFetcher, useRevalidator } from "react-router";
import { ListEditor, RowFieldset, type FieldSpec } from "~/features/admin/components/list-editor";
import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";
import { SLUG_INPUT_PATTERN } from "~/lib/core/rules";
import {
  blankRow,
  countText,
  EDITOR_PATH,
  fieldName,
  isBlankRow,
  notifyFormId,
  notifyPending,
  type EditorResult,
  type EditorRow,
  type NotifyStatus,
  type RowField,
} from "./blog-admin-screen";

type Props = {
  /** The saved posts, or what was typed when the last post did not save them. */
  rows: EditorRow[];
  reply?: Reply<EditorResult>;
  year: string;
  savedSlugs: string[];
  notifications: Record<string, NotifyStatus>;
};

/**
 * Every post as one plain form: a fieldset per post and one empty fieldset for a new post.
 * 'Save Changes' and 'Generate Social Share Files' are its two submit buttons (intent). Each
 * saved post's 'Notify Subscribers' button submits a small form of its own (intent notify,
 * slug), kept outside the editor form because forms cannot nest.
 */
export function BlogPostEditor({ rows: given, reply, year, savedSlugs, notifications }: Props) {
  // A post gets a notify button once it is saved (the first fieldset with its slug).
  const saved = new Set(savedSlugs);
  const seen = new Set<string>();
  const notifySlug = given.map((r) => {
    const slug = r.slug.trim();
    if (!saved.has(slug) || seen.has(slug)) return null;
    seen.add(slug);
    return slug;
  });

  useStatusPolling(Object.values(notifications).some(notifyPending));

  return (
    <>
      <ListEditor
        action={EDITOR_PATH}
        className="blog-editor"
        label="Blog posts"
        listClassName="blog-posts"
        rows={given}
        blankRow={blankRow(year)}
        isBlankRow={isBlankRow}
        issues={reply?.intent === "save" ? reply.result?.issues : undefined}
        reply={reply}
        status={reply?.result?.reason ? ` ${reply.result.reason}` : null}
        buttons={[
          { intent: "save", label: "Save Changes", busyLabel: "Saving…" },
          { intent: "share", label: "Generate Social Share Files", busyLabel: "Generating…", ghost: true },
        ]}
        help={
          <>
            <li>
              The slug is the post's address: <code>/blogs/friday-vespers</code>. Lower-case letters, digits and single
              dashes; every post needs its own.
            </li>
            <li>Tags are a comma list, e.g. <code>vespers, outreach</code>. A blank date saves as the current year.</li>
            <li>
              The image is a path on this site (<code>/images/blog/…</code>) or an https address; the LinkedIn link is an
              https address. The audio video id is the 11-character id from the video's address.
            </li>
            <li>
              Content is HTML. Scripts, styles, frames, event handlers and <code>javascript:</code> or <code>data:</code>{" "}
              links are removed when you save; links to other sites open in a new tab.
            </li>
            <li>Tick “Remove” to delete a post when you save. Fill in the last, empty box to add a post.</li>
          </>
        }
        renderRow={(row, i, isNew, issues) => {
          const slug = notifySlug[i];
          const title = row.title.trim() || row.slug.trim();
          return (
            <RowFieldset
              kind="blog-post"
              idPrefix="post"
              index={i}
              isNew={isNew}
              legend={isNew ? "Add a new post" : title || `Post ${i + 1}`}
              image={row.image}
              thumb={{ width: 48, height: 32 }}
              issues={issues}
              fields={FIELDS}
              values={row}
              nameOf={(f) => fieldName(i, f)}
              footClassName="blog-post-foot"
              removed={row.remove}
              footEnd={
                slug ? (
                  <NotifyControl
                    slug={slug}
                    title={row.title}
                    status={notifications[slug]}
                    serverReply={reply?.intent === "notify" && reply.result?.slug === slug ? reply : undefined}
                  />
                ) : null
              }
            />
          );
        }}
      />
      {[...seen].map((slug) => (
        <NotifyForm key={slug} slug={slug} />
      ))}
    </>
  );
}

/** While mail for a run is still going out, the counts refresh every few seconds (for two minutes). */
function useStatusPolling(active: boolean) {
  const revalidator = useRevalidator();
  const rounds = useRef(0);
  useEffect(() => {
    if (!active) {
      rounds.current = 0;
      return;
    }
    if (rounds.current >= 40 || revalidator.state !== "idle") return;
    const t = setTimeout(() => {
      rounds.current += 1;
      void revalidator.revalidate();
    }, 3000);
    return () => clearTimeout(t);
  }, [active, revalidator]);
}

/** Names and prose keep the browser's capitals and spell check. */
const PROSE = { autoCapitalize: undefined, spellCheck: undefined };

const FIELDS: FieldSpec<RowField>[] = [
  {
    field: "slug",
    label: "Slug",
    placeholder: "friday-vespers",
    attrs: { pattern: SLUG_INPUT_PATTERN, title: "Lower-case letters, digits and single dashes, e.g. friday-vespers." },
    maxLength: 80,
  },
  { field: "title", label: "Title", maxLength: 300, attrs: PROSE },
  { field: "author", label: "Author", maxLength: 80, attrs: { autoCapitalize: undefined } },
  { field: "date", label: "Date", placeholder: "2025-10-17", maxLength: 40 },
  { field: "tags", label: "Tags", placeholder: "vespers, outreach", hint: "Comma list", maxLength: 400 },
  { field: "image", label: "Cover image", placeholder: "/images/blog/…", maxLength: 500 },
  { field: "url", label: "LinkedIn link", placeholder: "https://www.linkedin.com/…", maxLength: 500 },
  { field: "audioVideoId", label: "Audio video id", placeholder: "optional", maxLength: 20 },
  { field: "summary", label: "Summary", textarea: {}, maxLength: 600 },
  {
    field: "contentHtml",
    label: "Content (HTML)",
    textarea: { rows: 8 },
    attrs: { spellCheck: false },
    hint: "Optional. Without it the post shows the LinkedIn article.",
    maxLength: 200_000,
  },
];

/** A saved post's links, its 'Notify Subscribers' button and the counts of its latest run. */
function NotifyControl({
  slug,
  title,
  status,
  serverReply,
}: {
  slug: string;
  title: string;
  status?: NotifyStatus;
  serverReply?: Reply<EditorResult>;
}) {
  const fetcher = useFetcher<Reply<EditorResult>>({ key: notifyFormId(slug) });
  const busy = fetcher.state !== "idle";
  const r = fetcher.data ?? serverReply;
  const statusId = `${notifyFormId(slug)}-status`;
  // 'Cancel' on the confirming step forgets the reply that asked.
  const [cancelled, setCancelled] = useState<unknown>(null);
  const asking = r?.result?.confirm === "notify" && r !== cancelled;
  return (
    <div className="notify-panel" id={`${notifyFormId(slug)}-panel`}>
      <p className="post-links">
        <a href={`/blogs/${slug}`} target="_blank" rel="noopener">
          View post
        </a>
        <a href={`/share/blogs/${slug}.html`} target="_blank" rel="noopener">
          Share page
        </a>
      </p>
      <div className="notify-row">
        <button
          type="submit"
          form={notifyFormId(slug)}
          className="button-ghost button-small"
          disabled={busy || asking}
          aria-describedby={statusId}
        >
          {busy ? "Notifying…" : "Notify Subscribers"}
        </button>
        {asking ? null : (
          <p role="status" aria-live="polite" className={r && r !== cancelled ? `notify-message notify-message-${r.status}` : "notify-message"}>
            {r !== cancelled ? r?.message : null}
            {r !== cancelled && r?.result?.reason ? <span className="notify-detail"> {r.result.reason}</span> : null}
          </p>
        )}
      </div>
      {asking ? (
        // Every send asks first, with how many people get it: an email cannot be called back.
        <ConfirmBox
          id={statusId}
          question={r?.message}
          yes={{
            name: "confirmed",
            value: "yes",
            label: r?.result?.notification ? "Send again" : `Send to ${countText(r?.result?.audience ?? 0, "subscriber")}`,
            form: notifyFormId(slug),
          }}
          cancelHref={EDITOR_PATH}
          onCancel={() => setCancelled(r)}
          busy={busy}
        >
          {r?.result?.notification ? (
            <p className="small">It would go to {countText(r.result.audience ?? 0, "subscriber")} now.</p>
          ) : (
            <p className="small">Each gets one email with a link to '{title.trim() || slug}'.</p>
          )}
        </ConfirmBox>
      ) : null}
      <p className="notify-status" id={statusId}>
        {status ? <NotifyCounts status={status} /> : "Subscribers have not been notified about this post."}
      </p>
    </div>
  );
}

function NotifyCounts({ status: s }: { status: NotifyStatus }) {
  const sending = notifyPending(s);
  return (
    <>
      Last notified {formatNairobiTimeEat(s.createdAt)}: {countText(s.recipients, "subscriber")} ·{" "}
      <span className="count">{s.queued} queued</span> · <span className="count count-sent">{s.sent} sent</span> ·{" "}
      {s.written ? (
        <>
          <span className="count count-written">
            {s.written} {WRITTEN_TO_OUTBOX}
          </span>{" "}
          ·{" "}
        </>
      ) : null}
      <span className={s.failed ? "count count-failed" : "count"}>{s.failed} failed</span>
      {sending ? <span className="sending"> (sending…)</span> : null}
    </>
  );
}

/** The hidden form a post's notify button submits; with JavaScript a fetcher sends it. */
function NotifyForm({ slug }: { slug: string }) {
  const fetcher = useFetcher<Reply<EditorResult>>({ key: notifyFormId(slug) });
  return (
    // Without JavaScript the answer reloads the page: it opens at this post's panel.
    <fetcher.Form id={notifyFormId(slug)} method="post" action={`${EDITOR_PATH}#${notifyFormId(slug)}-panel`} hidden>
      <input type="hidden" name="intent" value="notify" />
      <input type="hidden" name="slug" value={slug} />
    </fetcher.Form>
  );
}
