import { parseTags, type BlogPost } from "../blog";

/** Client-safe pieces of the staff screen /blogs/admin: its address, form shapes and words. */

export const EDITOR_PATH = "/blogs/admin";

/** The text fields of one post's fieldset, as typed; `remove` is the checkbox. */
export const ROW_FIELDS = [
  "slug",
  "title",
  "summary",
  "author",
  "date",
  "tags",
  "image",
  "url",
  "audioVideoId",
  "contentHtml",
] as const;
export type RowField = (typeof ROW_FIELDS)[number];
export type EditorRow = Record<RowField, string> & { remove: boolean };

/** Form field names: posts[0].slug, posts[0].remove, ... */
export const fieldName = (row: number, field: RowField | "remove") => `posts[${row}].${field}`;
export const FIELD_NAME = /^posts\[(\d{1,4})\]\.([A-Za-z]+)$/;

/** The empty fieldset for a new post: its date starts as the current year, as the spec's default. */
export const blankRow = (year: string): EditorRow => ({
  slug: "",
  title: "",
  summary: "",
  author: "",
  date: year,
  tags: "",
  image: "",
  url: "",
  audioVideoId: "",
  contentHtml: "",
  remove: false,
});

/** A new fieldset left empty is not a post and is dropped (its pre-filled date alone does not count). */
export const isBlankRow = (r: EditorRow) => ROW_FIELDS.every((f) => f === "date" || r[f].trim() === "");

export function postToRow(post: BlogPost): EditorRow {
  return {
    slug: post.slug,
    title: post.title,
    summary: post.summary,
    author: post.author,
    date: post.date,
    tags: post.tags.join(", "),
    image: post.image,
    url: post.url,
    audioVideoId: post.audioVideoId ?? "",
    contentHtml: post.contentHtml ?? "",
    remove: false,
  };
}

/** A fieldset as the save schema reads it: tags as a list, blank optional fields left out. */
export function rowToPost(row: EditorRow) {
  return {
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    author: row.author,
    date: row.date,
    tags: parseTags(row.tags),
    image: row.image,
    url: row.url,
    audioVideoId: row.audioVideoId.trim() || undefined,
    contentHtml: row.contentHtml.trim() ? row.contentHtml : undefined,
  };
}

export type FieldIssue = { row: number; field: RowField | null; message: string };

/** The counts of a post's latest 'Notify Subscribers' run (never addresses). */
export type NotifyStatus = {
  id: number;
  slug: string;
  createdAt: string;
  recipients: number;
  queued: number;
  sent: number;
  /** Kept as files in the outbox folder (no SMTP_URL): not sent. */
  written?: number;
  failed: number;
};

/**
 * What the screen's reply carries (intent save, share or notify). `rows` (what was typed) comes
 * back whenever it was not saved.
 */
export type EditorResult = {
  rows?: EditorRow[];
  issues?: FieldIssue[];
  /** notify: the post it was about, and its run's counts. */
  slug?: string;
  notification?: NotifyStatus;
  /** notify: set when sending waits for a second, confirming press (every time: an email cannot be called back). */
  confirm?: "notify";
  /** notify, asking: how many subscribers would get it. */
  audience?: number;
  /** notify: why it failed, shown after the message the spec fixes ('Notify failed'). */
  reason?: string;
};

export const countText = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The 'Notified subscribers: {text}' text: counts only. */
export const notifiedText = (recipients: number) => `${countText(recipients, "subscriber")} queued`;

/** Still sending when fewer messages are queued, sent or failed than there are recipients. */
export const notifyPending = (s: NotifyStatus) => s.queued < s.recipients || s.sent + (s.written ?? 0) + s.failed < s.queued;

/** The id of a post's notify form (and its fetcher key): the button sits in the editor form and names it. */
export const notifyFormId = (slug: string) => `notify-${slug}`;
