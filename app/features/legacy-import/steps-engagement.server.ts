import crypto from "node:crypto";
import type { Db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from "~/lib/core/rules";
import { importActivity } from "../activity/activity-import.server";
import { importEvents } from "../analytics/analytics-import.server";
import { NAME_PATTERN } from "../analytics/analytics.schema";
import { stripQuery, type TrackRow } from "../analytics/analytics.server";
import { REACTIONS } from "../blog/blog";
import { importPoll, importReactions, importVotes, postSlugs, reactionTotals, voteTotals } from "../blog/blog-import.server";
import { importSubscriber } from "../newsletter/newsletter-import.server";
import { asObject, isoTime, readJsonLines, readJsonMembers, text, type LocatedMember } from "./legacy-files";
import { clientOf, FileStep, lineKeys, plural, postSlugFor, readOldFile, reasonOf, toSlug, type RunContext } from "./run.server";

const refuse = (message: string): never => {
  throw new DomainError("invalid", message);
};

/** The members of a JSON object file (or of its `under` key), or the reason the file cannot be read. */
function membersOf(step: FileStep, body: string, under?: string): LocatedMember[] {
  try {
    return readJsonMembers(body, under);
  } catch (e) {
    step.refuse((e as { line?: number }).line ?? 1, `the whole file: ${reasonOf(e)}`);
    return [];
  }
}

// ---------------------------------------------------------------- subscribers

export async function importSubscribersFile(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "subscriber", "data/subscribers.json", "subscribers");
  const body = readOldFile(ctx, step.report.file);
  if (body === null) step.missing();
  else {
    // {"items":[...]} as the old site wrote it (a bare list is read too).
    const members = body.trimStart().startsWith("[") ? readJsonLinesOfList(step, body) : membersOf(step, body, "items");
    for (const { line, value } of members) {
      const o = asObject(value);
      const email = text(o?.email).toLowerCase();
      if (!o || !email) {
        step.refuse(line, "not a subscriber (an object with an email)");
        continue;
      }
      if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
        step.refuse(line, `"${email.slice(0, 60)}" is not an email address`);
        continue;
      }
      if (step.seen(email)) {
        step.skipped();
        continue;
      }
      await step.record(line, async () => {
        const source = (text(o.source) || "api").replace(/[^A-Za-z0-9._:/-]/g, "-").slice(0, 80);
        const status = (text(o.status) || "active").toLowerCase() === "active" ? "active" : "unsubscribed";
        const done = await importSubscriber(db, { email, source, status, createdAt: isoTime(o.created_at ?? o.createdAt) ?? nowIso() });
        if (done === "added") step.added();
        else step.skipped();
        step.take(email);
      });
    }
  }
  await step.close();
  return step.report;
}

function readJsonLinesOfList(step: FileStep, body: string): LocatedMember[] {
  try {
    return readJsonMembers(`{"items":${body}}`, "items");
  } catch (e) {
    step.refuse(1, `the whole file: ${reasonOf(e)}`);
    return [];
  }
}

// ---------------------------------------------------------------- reactions

/**
 * Reactions: the log first (each client's last action on a post and reaction stands, as this
 * site keeps one reaction per client), then the totals of reactions.json, which readers saw:
 * where the old totals are higher (the old site counted repeats from one address), the
 * difference is kept as reactions of unknown clients, so no post shows fewer than it did.
 */
export async function importReactionFiles(ctx: RunContext, db: Db) {
  const slugs = await postSlugs(db);
  const log = await FileStep.open(ctx, db, "reaction_line", "data/reactions_log.jsonl", "reaction log lines");
  const logBody = readOldFile(ctx, log.report.file);
  const state = new Map<string, { slug: string; reaction: string; cid: string; on: boolean; at: string }>();
  if (logBody === null) log.missing();
  else {
    const keyOf = lineKeys();
    for (const entry of readJsonLines(logBody)) {
      if ("error" in entry) {
        log.refuse(entry.line, entry.error, entry.raw);
        continue;
      }
      const key = keyOf(entry.raw);
      if (log.seen(key)) {
        log.skipped();
        continue;
      }
      try {
        const o = asObject(entry.value) ?? refuse("not a log line (an object)");
        const reaction = text(o.reaction);
        if (!(REACTIONS as readonly string[]).includes(reaction)) refuse(`unknown reaction "${reaction.slice(0, 20)}"`);
        const slug = postSlugFor(ctx, slugs, text(o.slug)) ?? refuse(`no post here has the slug "${text(o.slug).slice(0, 60)}"`);
        const cid = clientOf(ctx, o.cid, o.ip) ?? refuse("the line names no client (no cid and no ip)");
        const action = text(o.action) || (o.undo ? "undo" : "add");
        const at = isoTime(o.ts) ?? nowIso();
        if (action === "add" || action === "undo") state.set(`${slug}|${reaction}|${cid}`, { slug, reaction, cid, on: action === "add", at });
        log.added();
        log.take(key);
      } catch (e) {
        log.refuse(entry.line, reasonOf(e));
      }
    }
    await importReactions(db, [...state.values()].filter((s) => s.on));
  }
  await log.close();

  const totals = await FileStep.open(ctx, db, "reaction_total", "data/reactions.json", "posts' reaction totals");
  const body = readOldFile(ctx, totals.report.file);
  if (body === null) totals.missing();
  else {
    const here = await reactionTotals(db);
    const kept: { slug: string; reaction: string; cid: string; at: string }[] = [];
    for (const { line, key: oldSlug, value } of membersOf(totals, body, "slugs")) {
      const counts = asObject(value);
      const slug = postSlugFor(ctx, slugs, oldSlug);
      if (!counts || !slug) {
        totals.refuse(line, counts ? `no post here has the slug "${oldSlug.slice(0, 60)}"` : "not a post's counts ({reaction: count})");
        continue;
      }
      if (totals.seen(oldSlug)) {
        totals.skipped();
        continue;
      }
      for (const [reaction, n] of Object.entries(counts)) {
        if (!(REACTIONS as readonly string[]).includes(reaction)) continue;
        const missing = Math.max(0, Math.min(100_000, Math.trunc(Number(n) || 0)) - (here.get(`${slug}|${reaction}`) ?? 0));
        for (let i = 0; i < missing; i++) {
          kept.push({ slug, reaction, cid: `old-${crypto.createHash("sha256").update(`${slug}|${reaction}|${i}`).digest("hex").slice(0, 24)}`, at: nowIso() });
        }
        if (missing > 0) here.set(`${slug}|${reaction}`, (here.get(`${slug}|${reaction}`) ?? 0) + missing);
      }
      totals.added();
      totals.take(oldSlug, slug);
    }
    const added = await importReactions(db, kept);
    if (added > 0) totals.note(`${plural(added, "reaction")} kept from the old totals beyond what the log names a client for`);
  }
  await totals.close();
  return [log.report, totals.report];
}

// ---------------------------------------------------------------- polls

/** An old poll id here: a post's poll follows the post's slug (blog-sabbath_rest-feedback → blog-sabbath-rest-feedback). */
function pollIdFor(ctx: RunContext, slugs: Set<string>, id: string): string {
  const m = /^blog-(.+)-(feedback|poll)$/.exec(id);
  const slug = m ? postSlugFor(ctx, slugs, m[1]!) : null;
  if (slug) return `blog-${slug}-${m![2]}`;
  return NAME_PATTERN.test(id) && id.length <= 100 ? id : toSlug(id, 100);
}

/**
 * Polls: polls.json's questions and options, then the log's votes (one answer per client per
 * question, as this site keeps them), then polls.json's totals where they are higher (the old
 * site counted repeat votes from one address), kept as votes of unknown clients.
 */
export async function importPollFiles(ctx: RunContext, db: Db) {
  const slugs = await postSlugs(db);
  const polls = await FileStep.open(ctx, db, "poll", "data/polls.json", "polls");
  const pollsBody = readOldFile(ctx, polls.report.file);
  const wanted: { pollId: string; counts: Record<string, unknown> }[] = [];
  if (pollsBody === null) polls.missing();
  else {
    for (const { line, key: oldId, value } of membersOf(polls, pollsBody, "polls")) {
      const o = asObject(value);
      if (!o) {
        polls.refuse(line, `poll ${oldId.slice(0, 60)} is not an object ({question, options})`);
        continue;
      }
      if (polls.seen(oldId)) {
        polls.skipped();
        continue;
      }
      await polls.record(line, async () => {
        const pollId = pollIdFor(ctx, slugs, oldId);
        if (!pollId) refuse(`poll id "${oldId.slice(0, 60)}" has no letters or digits`);
        const counts = asObject(o.options) ?? {};
        const options = Object.keys(counts).map((k) => k.trim().slice(0, 100)).filter(Boolean);
        await importPoll(db, pollId, text(o.question).slice(0, 200) || "What do you think?", options.length ? options : ["A"]);
        wanted.push({ pollId, counts });
        polls.added();
        polls.take(oldId, pollId);
      });
    }
  }

  const log = await FileStep.open(ctx, db, "poll_line", "data/polls_log.jsonl", "poll log lines");
  const logBody = readOldFile(ctx, log.report.file);
  if (logBody === null) log.missing();
  else {
    const keyOf = lineKeys();
    const votes: { pollId: string; option: string; cid: string; at: string }[] = [];
    for (const entry of readJsonLines(logBody)) {
      if ("error" in entry) {
        log.refuse(entry.line, entry.error, entry.raw);
        continue;
      }
      const key = keyOf(entry.raw);
      if (log.seen(key)) {
        log.skipped();
        continue;
      }
      try {
        const o = asObject(entry.value) ?? refuse("not a log line (an object)");
        const oldId = text(o.id);
        const option = text(o.option).slice(0, 100);
        if (!oldId || !option) refuse("the line names no poll or no option");
        const cid = clientOf(ctx, o.cid, o.ip) ?? refuse("the line names no client (no cid and no ip)");
        const pollId = pollIdFor(ctx, slugs, oldId) || refuse(`poll id "${oldId.slice(0, 60)}" has no letters or digits`);
        // A repeat the old site did not count is not a vote.
        if (o.dup !== true) votes.push({ pollId, option, cid, at: isoTime(o.ts) ?? nowIso() });
        log.added();
        log.take(key);
      } catch (e) {
        log.refuse(entry.line, reasonOf(e));
      }
    }
    await importVotes(db, votes);
  }
  await log.close();

  const here = await voteTotals(db);
  const kept: { pollId: string; option: string; cid: string; at: string }[] = [];
  for (const { pollId, counts } of wanted) {
    for (const [raw, n] of Object.entries(counts)) {
      const option = raw.trim().slice(0, 100);
      const missing = Math.max(0, Math.min(100_000, Math.trunc(Number(n) || 0)) - (here.get(`${pollId}|${option}`) ?? 0));
      for (let i = 0; i < missing; i++) kept.push({ pollId, option, cid: `old-${crypto.createHash("sha256").update(`${pollId}|${option}|${i}`).digest("hex").slice(0, 24)}`, at: nowIso() });
    }
  }
  const added = await importVotes(db, kept);
  if (added > 0) polls.note(`${plural(added, "vote")} kept from the old totals beyond what the log names a client for`);
  await polls.close();
  return [polls.report, log.report];
}

// ---------------------------------------------------------------- analytics

/** The old tracker stripped dots from page names: the names this site counts under. */
const PAGE_NAMES: Record<string, string> = { merchstore: "merch.store", eventbadges: "event.badges", vespersgratitude_wall: "vespers.gratitude_wall" };

/** An old event's meta as this site keeps it: up to 20 keys, texts cut to 200 characters, nested values as JSON text. */
function metaOf(value: unknown): Record<string, string | number | boolean | null> {
  const o = asObject(value);
  if (!o) return {};
  const out: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(o).slice(0, 20)) {
    const key = k.slice(0, 40);
    if (v === null || typeof v === "number" || typeof v === "boolean") out[key] = v;
    else if (typeof v === "string") out[key] = v.slice(0, 200);
    else out[key] = JSON.stringify(v).slice(0, 200);
  }
  return out;
}

const nameOk = (name: string) => name.length > 0 && name.length <= 100 && NAME_PATTERN.test(name);

export async function importAnalyticsFile(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "analytics_line", "data/analytics.jsonl", "analytics events");
  const body = readOldFile(ctx, step.report.file);
  if (body === null) step.missing();
  else {
    const slugs = await postSlugs(db);
    const keyOf = lineKeys();
    const rows: TrackRow[] = [];
    for (const entry of readJsonLines(body)) {
      if ("error" in entry) {
        step.refuse(entry.line, entry.error, entry.raw);
        continue;
      }
      const key = keyOf(entry.raw);
      if (step.seen(key)) {
        step.skipped();
        continue;
      }
      try {
        const o = asObject(entry.value) ?? refuse("not an event (an object)");
        const ts = isoTime(o.ts) ?? refuse("no readable time (ts)");
        const type = text(o.type);
        const base = { ts, ref: stripQuery(text(o.ref), 500), cid: clientOf(ctx, o.cid, o.ip, o.ua) ?? "", src: "", meta: "{}", path: "" };
        let row: TrackRow;
        if (type === "page.view") {
          const page = text(o.page);
          const name = PAGE_NAMES[page] ?? (page || stripQuery(text(o.path), 100));
          if (!nameOk(name)) refuse(`page "${name.slice(0, 60)}" cannot be counted (letters, digits, . _ : / - only)`);
          row = { ...base, type, name, path: stripQuery(text(o.path)) };
        } else if (type === "event") {
          const name = text(o.name);
          if (!nameOk(name)) refuse(`event name "${name.slice(0, 60)}" cannot be counted`);
          row = { ...base, type, name, path: stripQuery(text(o.path)), meta: JSON.stringify(metaOf(o.meta)) };
        } else if (type === "blog.view") {
          const old = text(o.slug);
          const slug = postSlugFor(ctx, slugs, old) ?? old;
          if (!nameOk(slug)) refuse(`blog view of "${slug.slice(0, 60)}" cannot be counted`);
          row = { ...base, type, name: slug, src: text(o.src) === "share" ? "share" : "site" };
        } else {
          refuse(`unknown type "${type.slice(0, 20)}" (page.view, event or blog.view)`);
        }
        rows.push(row!);
        step.added();
        step.take(key);
      } catch (e) {
        step.refuse(entry.line, reasonOf(e));
      }
    }
    await importEvents(db, rows);
  }
  await step.close();
  return step.report;
}

// ---------------------------------------------------------------- the staff activity log

export async function importActivityFile(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "activity_line", "data/admin_activity.jsonl", "activity log entries");
  const body = readOldFile(ctx, step.report.file);
  if (body === null) step.missing();
  else {
    const keyOf = lineKeys();
    const entries: Parameters<typeof importActivity>[1] = [];
    for (const entry of readJsonLines(body)) {
      if ("error" in entry) {
        step.refuse(entry.line, entry.error, entry.raw);
        continue;
      }
      const key = keyOf(entry.raw);
      if (step.seen(key)) {
        step.skipped();
        continue;
      }
      const o = asObject(entry.value);
      const ts = isoTime(o?.ts);
      if (!o || !ts) {
        step.refuse(entry.line, o ? "no readable time (ts)" : "not an activity entry (an object)");
        continue;
      }
      const meta = asObject(o.meta) ?? {};
      entries.push({
        ts,
        type: text(o.type) || "custom",
        message: text(o.message),
        meta: { ...meta, importedFrom: "old site" },
        actorIp: text(o.actorIp),
      });
      step.added();
      step.take(key);
    }
    await importActivity(db, entries);
  }
  await step.close();
  return step.report;
}
