import { data, type AppLoadContext } from "react-router";
import { z } from "zod";
import { TEAM_BADGES_EDITOR_PATH, type TeamBadgeEditResult } from "~/features/team-badges/components/team-badges-editor";
import { BadgeIdSchema, TeamBadgeHolderSchema, TeamBadgeRevokeSchema } from "~/features/team-badges/team-badges.schema";
import { setTeamBadgeRevoked, updateTeamBadgeHolder } from "~/features/team-badges/team-badges.server";
import { NEW_BADGE_FORM } from "~/features/team-badges/components/team-badge-forms";
import { BADGE_IMAGE_MAX_BYTES, processBadgeImage } from "~/features/team-badges/badge-image.server";
import { TeamBadgeCreateSchema, TeamBadgeDetailsSchema, TeamBadgeRetireSchema } from "~/features/team-badges/team-badge-admin.schema";
import {
  createTeamBadge,
  issueTeamBadge,
  restoreRetiredTeamBadge,
  retireTeamBadge,
  updateTeamBadgeDetails,
} from "~/features/team-badges/team-badges-admin.server";
import type { Reply } from "~/lib/forms";
import { staffAction, staffIntent, type StaffContext } from "~/features/admin/staff-action.server";

type R = TeamBadgeEditResult;
const reply = (body: Reply<R>, status: number) => data(body, status);

/** The card's badge id, when it is one; a bad id is answered before anything else. */
const idOf = (ctx: StaffContext) => BadgeIdSchema.safeParse(ctx.fields.id ?? "");

/** A refused input: about the badge id (no card to show it on), or beside the card it came from. */
const refusedInput = (message: string | undefined, fallback: string, ctx: StaffContext, values?: Record<string, string>) => {
  const id = idOf(ctx);
  if (!id.success) return reply({ status: "error", message: id.error.issues[0]?.message ?? "Unknown badge." }, 400);
  return reply({ status: "error", message: message ?? fallback, ...(values ? { values } : {}), result: { id: id.data } }, 400);
};

const holder = staffIntent<R, typeof TeamBadgeHolderSchema>({
  schema: TeamBadgeHolderSchema,
  invalid: ({ message }, ctx) => refusedInput(message, "Check the fields.", ctx, ctx.fields as Record<string, string>),
  run: async (input, { db, actor }) => {
    await updateTeamBadgeHolder(db, input, actor);
    return reply({ status: "success", message: "Saved.", result: { id: input.id } }, 200);
  },
});

const revoke = staffIntent<R, typeof TeamBadgeRevokeSchema>({
  schema: TeamBadgeRevokeSchema,
  invalid: ({ message }, ctx) => refusedInput(message, "Give the reason.", ctx),
  run: async ({ id, reason }, { db, actor }) => {
    await setTeamBadgeRevoked(db, id, reason, actor);
    return reply({ status: "success", message: "Revoked: its verify page and Open Badges records now say so.", result: { id } }, 200);
  },
});

const RestoreSchema = z.object({ id: BadgeIdSchema });

const restore = staffIntent<R, typeof RestoreSchema>({
  schema: RestoreSchema,
  invalid: (_, ctx) => refusedInput(undefined, "Unknown badge.", ctx),
  run: async ({ id }, { db, actor }) => {
    await setTeamBadgeRevoked(db, id, null, actor);
    return reply({ status: "success", message: "Valid again.", result: { id } }, 200);
  },
});

/** The picture sent with a form, checked and re-encoded; null when none was chosen. */
async function uploadedImage(ctx: StaffContext): Promise<Buffer | null> {
  const file = ctx.submission.form?.get("image");
  if (!(file instanceof File) || file.size === 0) return null;
  return processBadgeImage(new Uint8Array(await file.arrayBuffer()));
}

/** Typed text fields, kept on a refused form (never a file). */
const typedOf = (ctx: StaffContext) => Object.fromEntries(Object.entries(ctx.fields).filter(([k, v]) => typeof v === "string" && k !== "intent")) as Record<string, string>;

const create = staffIntent<R, typeof TeamBadgeCreateSchema>({
  schema: TeamBadgeCreateSchema,
  invalid: ({ message }, ctx) => reply({ status: "error", message: message ?? "Check the fields.", values: typedOf(ctx), result: { id: NEW_BADGE_FORM } }, 400),
  refused: (e, ctx) => ({ status: "error", message: e.message, values: typedOf(ctx), result: { id: NEW_BADGE_FORM } }),
  run: async (input, ctx) => {
    const { id } = await createTeamBadge(ctx.db, input, await uploadedImage(ctx), ctx.actor);
    return reply({ status: "success", message: `Created badge ${id}.`, result: { id } }, 200);
  },
});

const details = staffIntent<R, typeof TeamBadgeDetailsSchema>({
  schema: TeamBadgeDetailsSchema,
  invalid: ({ message }, ctx) => refusedInput(message, "Check the fields.", ctx, typedOf(ctx)),
  run: async (input, ctx) => {
    await updateTeamBadgeDetails(ctx.db, input, await uploadedImage(ctx), ctx.actor);
    return reply({ status: "success", message: "Details saved.", result: { id: input.id } }, 200);
  },
});

const issue = staffIntent<R, typeof TeamBadgeHolderSchema>({
  schema: TeamBadgeHolderSchema,
  invalid: ({ message }, ctx) => refusedInput(message, "Check the fields.", ctx, typedOf(ctx)),
  run: async (input, { db, actor }) => {
    await issueTeamBadge(db, input, actor);
    return reply({ status: "success", message: `Issued to ${input.ownerName}.`, result: { id: input.id } }, 200);
  },
});

const retire = staffIntent<R, typeof TeamBadgeRetireSchema>({
  schema: TeamBadgeRetireSchema,
  invalid: ({ message }, ctx) => refusedInput(message, "Check the reason.", ctx),
  run: async ({ id, reason }, { db, actor }) => {
    await retireTeamBadge(db, id, reason, actor);
    return reply({ status: "success", message: "Retired: hidden from the badges page; its shared links say it no longer stands.", result: { id } }, 200);
  },
});

const unretire = staffIntent<R, typeof RestoreSchema>({
  schema: RestoreSchema,
  invalid: (_, ctx) => refusedInput(undefined, "Unknown badge.", ctx),
  run: async ({ id }, { db, actor }) => {
    await restoreRetiredTeamBadge(db, id, actor);
    return reply({ status: "success", message: "Back on the badges page.", result: { id } }, 200);
  },
});

/**
 * A card's forms on /admin/team-badges: the holder's details, revoke with a reason, or make
 * valid again; each answers beside the badge it changed.
 */
export function teamBadgesAction(request: Request, context: AppLoadContext) {
  return staffAction<R>(request, context, {
    name: "team-badges",
    session: { returnTo: TEAM_BADGES_EDITOR_PATH },
    // A badge picture (6 MB at most, checked again when read) and the text fields.
    maxBytes: BADGE_IMAGE_MAX_BYTES + 64 * 1024,
    // Every text field as sent, cut to 2,000 characters (the schemas say each field's limit).
    fieldsOf: ({ form }) =>
      Object.fromEntries([...(form?.entries() ?? [])].filter(([, v]) => typeof v === "string").map(([k, v]) => [k, String(v).slice(0, 2000)])),
    intents: { holder, revoke, restore, create, details, issue, retire, unretire },
    // A body too large (a picture over the limit) is answered beside the create form.
    unreadable: (message) => ({ status: "error", message, result: { id: NEW_BADGE_FORM } }),
    unknown: (ctx) => {
      const id = idOf(ctx);
      return id.success ? { status: "error", message: "Unknown action.", result: { id: id.data } } : { status: "error", message: id.error.issues[0]?.message ?? "Unknown badge." };
    },
    refused: (e, ctx) => {
      const id = idOf(ctx);
      return { status: "error", message: e.message, ...(id.success ? { result: { id: id.data } } : {}) };
    },
  });
}
