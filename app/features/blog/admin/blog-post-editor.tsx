import { useEffect, useRef } from "react";
import { Form, useFetcher, useNavigation, useRevalidator } from "react-router";
import { FieldError } from "~/components/ui/form-parts";
import { formatNairobiTimeEat } from "~/lib/nairobi-time";
import {
  blankRow,
  countText,
  EDITOR_PATH,
  fieldName,
  isBlankRow,
  notifyFormId,
  notifyPending,
  type EditorReply,
  type EditorRow,
  type FieldIssue,
  type NotifyStatus,
  type RowField,
} from "./blog-admin-screen";

type Props = {
  /** The saved posts, or what was typed when the last post did not save them. */
  rows: EditorRow[];
  reply?: EditorReply;
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
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction === EDITOR_PATH;
  const pending = submitting ? navigation.formData?.get("intent") : null;
  const last = given[given.length - 1];
  const rows = last && isBlankRow(last) ? given : [...given, blankRow(year)];
  const issues = reply?.intent === "save" ? (reply.issues ?? []) : [];
  const formRef = useRef<HTMLFormElement>(null);

  // A post gets a notify button once it is saved (the first fieldset with its slug).
  const saved = new Set(savedSlugs);
  const seen = new Set<string>();
  const notifySlug = rows.map((r) => {
    const slug = r.slug.trim();
    if (!saved.has(slug) || seen.has(slug)) return null;
    seen.add(slug);
    return slug;
  });

  useEffect(() => {
    if (reply?.tone === "error" && reply.issues?.length) {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }, [reply]);

  useStatusPolling(Object.values(notifications).some(notifyPending));

  return (
    <>
      <Form method="post" action={EDITOR_PATH} className="blog-editor" ref={formRef} aria-label="Blog posts">
        <details className="editor-help">
          <summary>How the fields are read</summary>
          <ul>
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
          </ul>
        </details>
        <ol className="blog-posts">
          {rows.map((row, i) => (
            <li key={i}>
              <PostFieldset
                row={row}
                index={i}
                isNew={i === rows.length - 1 && isBlankRow(row)}
                issues={issues.filter((x) => x.row === i)}
                notify={
                  notifySlug[i] ? (
                    <NotifyControl
                      slug={notifySlug[i]}
                      title={row.title}
                      status={notifications[notifySlug[i]]}
                      serverReply={reply?.intent === "notify" && reply.slug === notifySlug[i] ? reply : undefined}
                    />
                  ) : null
                }
              />
            </li>
          ))}
        </ol>
        <div className="editor-bar">
          <p role="status" aria-live="polite" className={reply ? `admin-message admin-message-${reply.tone}` : "admin-message"}>
            {reply?.message}
            {reply?.detail ? ` ${reply.detail}` : null}
          </p>
          <div className="editor-bar-buttons">
            <button type="submit" name="intent" value="save" disabled={!!pending}>
              {pending === "save" ? "Saving…" : "Save Changes"}
            </button>
            <button type="submit" name="intent" value="share" className="button-ghost" disabled={!!pending}>
              {pending === "share" ? "Generating…" : "Generate Social Share Files"}
            </button>
          </div>
        </div>
      </Form>
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

type FieldSpec = {
  field: RowField;
  label: string;
  kind?: "textarea" | "html";
  placeholder?: string;
  hint?: string;
  pattern?: string;
  title?: string;
  maxLength: number;
};

const FIELDS: FieldSpec[] = [
  {
    field: "slug",
    label: "Slug",
    placeholder: "friday-vespers",
    pattern: "[a-z0-9]+(-[a-z0-9]+)*",
    title: "Lower-case letters, digits and single dashes, e.g. friday-vespers.",
    maxLength: 80,
  },
  { field: "title", label: "Title", maxLength: 160 },
  { field: "author", label: "Author", maxLength: 80 },
  { field: "date", label: "Date", placeholder: "2025-10-17", maxLength: 40 },
  { field: "tags", label: "Tags", placeholder: "vespers, outreach", hint: "Comma list", maxLength: 400 },
  { field: "image", label: "Cover image", placeholder: "/images/blog/…", maxLength: 500 },
  { field: "url", label: "LinkedIn link", placeholder: "https://www.linkedin.com/…", maxLength: 500 },
  { field: "audioVideoId", label: "Audio video id", placeholder: "optional", maxLength: 20 },
  { field: "summary", label: "Summary", kind: "textarea", maxLength: 600 },
  { field: "contentHtml", label: "Content (HTML)", kind: "html", hint: "Optional. Without it the post shows the LinkedIn article.", maxLength: 200_000 },
];

/** Only site paths and https images are previewed, as the save schema allows. */
const previewable = (src: string) => /^\/(?!\/)[A-Za-z0-9._~/-]+$/.test(src) || /^https:\/\/[^\s"'<>]+$/.test(src);

function PostFieldset({
  row,
  index,
  isNew,
  issues,
  notify,
}: {
  row: EditorRow;
  index: number;
  isNew: boolean;
  issues: FieldIssue[];
  notify: React.ReactNode;
}) {
  const id = (f: RowField | "remove") => `post-${index}-${f}`;
  const issueFor = (f: RowField) => issues.find((x) => x.field === f)?.message;
  const general = issues.filter((x) => x.field === null);
  const title = row.title.trim() || row.slug.trim();
  const legend = isNew ? "Add a new post" : title || `Post ${index + 1}`;
  const className = ["blog-post", isNew ? "blog-post-new" : "", issues.length ? "has-error" : ""].filter(Boolean).join(" ");
  const image = row.image.trim();

  return (
    <fieldset className={className}>
      <legend>
        {previewable(image) ? <img className="blog-post-thumb" src={image} alt="" width={48} height={32} loading="lazy" decoding="async" /> : null}
        <span>{legend}</span>
      </legend>
      {general.map((g) => (
        <p key={g.message} className="field-error">
          {g.message}
        </p>
      ))}
      <div className="blog-post-grid">
        {FIELDS.map((spec) => {
          const error = issueFor(spec.field);
          const errorId = `${id(spec.field)}-error`;
          const hintId = spec.hint ? `${id(spec.field)}-hint` : undefined;
          const common = {
            id: id(spec.field),
            name: fieldName(index, spec.field),
            defaultValue: row[spec.field],
            placeholder: spec.placeholder,
            maxLength: spec.maxLength,
            "aria-invalid": error ? true : undefined,
            "aria-describedby": [error ? errorId : null, hintId].filter(Boolean).join(" ") || undefined,
          };
          return (
            <div key={spec.field} className={`field field-${spec.field}`}>
              <label htmlFor={common.id}>{spec.label}</label>
              {spec.kind ? (
                <textarea {...common} rows={spec.kind === "html" ? 8 : 3} spellCheck={spec.kind !== "html"} />
              ) : (
                <input
                  {...common}
                  type="text"
                  pattern={spec.pattern}
                  title={spec.title}
                  autoComplete="off"
                  autoCapitalize={spec.field === "title" || spec.field === "author" ? undefined : "off"}
                  spellCheck={spec.field === "title" ? undefined : false}
                />
              )}
              {spec.hint ? (
                <p className="field-hint" id={hintId}>
                  {spec.hint}
                </p>
              ) : null}
              <FieldError id={errorId} message={error} />
            </div>
          );
        })}
      </div>
      <div className="blog-post-foot">
        {isNew ? null : (
          <label className="check check-remove">
            <input type="checkbox" name={fieldName(index, "remove")} value="on" defaultChecked={row.remove} />
            Remove
          </label>
        )}
        {notify}
      </div>
    </fieldset>
  );
}

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
  serverReply?: EditorReply;
}) {
  const fetcher = useFetcher<EditorReply>({ key: notifyFormId(slug) });
  const busy = fetcher.state !== "idle";
  const r = fetcher.data ?? serverReply;
  const statusId = `${notifyFormId(slug)}-status`;
  return (
    <div className="notify-panel">
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
          disabled={busy}
          aria-describedby={statusId}
          onClick={(e) => {
            // Everyone on the list gets another email: with JavaScript, ask before a repeat.
            if (status && !window.confirm(`Subscribers were already notified about “${title || slug}”. Email them again?`)) {
              e.preventDefault();
            }
          }}
        >
          {busy ? "Notifying…" : "Notify Subscribers"}
        </button>
        <p role="status" aria-live="polite" className={r ? `notify-message notify-message-${r.tone}` : "notify-message"}>
          {r?.message}
          {r?.detail ? <span className="notify-detail"> {r.detail}</span> : null}
        </p>
      </div>
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
      <span className={s.failed ? "count count-failed" : "count"}>{s.failed} failed</span>
      {sending ? <span className="sending"> (sending…)</span> : null}
    </>
  );
}

/** The hidden form a post's notify button submits; with JavaScript a fetcher sends it. */
function NotifyForm({ slug }: { slug: string }) {
  const fetcher = useFetcher<EditorReply>({ key: notifyFormId(slug) });
  return (
    <fetcher.Form id={notifyFormId(slug)} method="post" action={EDITOR_PATH} hidden>
      <input type="hidden" name="intent" value="notify" />
      <input type="hidden" name="slug" value={slug} />
    </fetcher.Form>
  );
}
