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
import type { Reply } from "~/lib/core/forms";
import { intentOf, parseInput, readForm, replyFromError, submissionOf } from "~/lib/forms/submission.server";
import { requireStaff } from "~/features/admin/staff-auth.server";

type R = TeamBadgeEditResult;
const reply = (body: Reply<R>, status: number) => data(body, status);

type Fields = Record<string, unknown>;

/** The card's badge id, when it is one; a bad id is answered before anything else. */
const idOf = (fields: Fields) => BadgeIdSchema.safeParse(fields.id ?? "");

/** A refused input: about the badge id (no card to show it on), or beside the card it came from. */
const refusedInput = (message: string | undefined, fallback: string, fields: Fields, values?: Record<string, string>) => {
  const id = idOf(fields);
  if (!id.success) return reply({ status: "error", message: id.error.issues[0]?.message ?? "Unknown badge." }, 400);
  return reply({ status: "error", message: message ?? fallback, ...(values ? { values } : {}), result: { id: id.data } }, 400);
};

const RestoreSchema = z.object({ id: BadgeIdSchema });

/** The picture sent with a form, checked and re-encoded; null when none was chosen. */
async function uploadedImage(form: FormData): Promise<Buffer | null> {
  const file = form.get("image");
  if (!(file instanceof File) || file.size === 0) return null;
  return processBadgeImage(new Uint8Array(await file.arrayBuffer()));
}

/** Every text field as sent, cut to 2,000 characters (the schemas say each field's limit). */
const textFields = (form: FormData): Fields =>
  Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string").map(([k, v]) => [k, String(v).slice(0, 2000)]));

/** Typed text fields, kept on a refused form (never a file). */
const typedOf = (fields: Fields) => Object.fromEntries(Object.entries(fields).filter(([k, v]) => typeof v === "string" && k !== "intent")) as Record<string, string>;

/**
 * A card's forms on /admin/team-badges: the holder's details, revoke with a reason, or make
 * valid again, create, details, issue, retire and bring back; each answers beside the badge it changed.
 */
export async function teamBadgesAction(request: Request, context: AppLoadContext) {
  const actor = await requireStaff(request, context, TEAM_BADGES_EDITOR_PATH);
  let form: FormData;
  try {
    // A badge picture (6 MB at most, checked again when read) and the text fields.
    form = await readForm(request, BADGE_IMAGE_MAX_BYTES + 64 * 1024);
  } catch (e) {
    // A body too large (a picture over the limit) is answered beside the create form.
    return replyFromError<R>(e, { result: { id: NEW_BADGE_FORM } }, { asMessage: true });
  }
  const fields = textFields(form);
  const intent = intentOf(submissionOf(form));
  const db = context.db;
  try {
    switch (intent) {
      case "holder": {
        const parsed = parseInput(TeamBadgeHolderSchema, fields);
        if (!parsed.ok) return refusedInput(parsed.first, "Check the fields.", fields, fields as Record<string, string>);
        await updateTeamBadgeHolder(db, parsed.value, actor);
        return reply({ status: "success", message: "Saved.", result: { id: parsed.value.id } }, 200);
      }
      case "revoke": {
        const parsed = parseInput(TeamBadgeRevokeSchema, fields);
        if (!parsed.ok) return refusedInput(parsed.first, "Give the reason.", fields);
        const { id, reason } = parsed.value;
        await setTeamBadgeRevoked(db, id, reason, actor);
        return reply({ status: "success", message: "Revoked: its verify page and Open Badges records now say so.", result: { id } }, 200);
      }
      case "restore": {
        const parsed = parseInput(RestoreSchema, fields);
        if (!parsed.ok) return refusedInput(undefined, "Unknown badge.", fields);
        await setTeamBadgeRevoked(db, parsed.value.id, null, actor);
        return reply({ status: "success", message: "Valid again.", result: { id: parsed.value.id } }, 200);
      }
      case "create": {
        const parsed = parseInput(TeamBadgeCreateSchema, fields);
        if (!parsed.ok) return reply({ status: "error", message: parsed.first ?? "Check the fields.", values: typedOf(fields), result: { id: NEW_BADGE_FORM } }, 400);
        try {
          const { id } = await createTeamBadge(db, parsed.value, await uploadedImage(form), actor);
          return reply({ status: "success", message: `Created badge ${id}.`, result: { id } }, 200);
        } catch (e) {
          return replyFromError<R>(e, { values: typedOf(fields), result: { id: NEW_BADGE_FORM } }, { asMessage: true });
        }
      }
      case "details": {
        const parsed = parseInput(TeamBadgeDetailsSchema, fields);
        if (!parsed.ok) return refusedInput(parsed.first, "Check the fields.", fields, typedOf(fields));
        await updateTeamBadgeDetails(db, parsed.value, await uploadedImage(form), actor);
        return reply({ status: "success", message: "Details saved.", result: { id: parsed.value.id } }, 200);
      }
      case "issue": {
        const parsed = parseInput(TeamBadgeHolderSchema, fields);
        if (!parsed.ok) return refusedInput(parsed.first, "Check the fields.", fields, typedOf(fields));
        await issueTeamBadge(db, parsed.value, actor);
        return reply({ status: "success", message: `Issued to ${parsed.value.ownerName}.`, result: { id: parsed.value.id } }, 200);
      }
      case "retire": {
        const parsed = parseInput(TeamBadgeRetireSchema, fields);
        if (!parsed.ok) return refusedInput(parsed.first, "Check the reason.", fields);
        const { id, reason } = parsed.value;
        await retireTeamBadge(db, id, reason, actor);
        return reply({ status: "success", message: "Retired: hidden from the badges page; its shared links say it no longer stands.", result: { id } }, 200);
      }
      case "unretire": {
        const parsed = parseInput(RestoreSchema, fields);
        if (!parsed.ok) return refusedInput(undefined, "Unknown badge.", fields);
        await restoreRetiredTeamBadge(db, parsed.value.id, actor);
        return reply({ status: "success", message: "Back on the badges page.", result: { id: parsed.value.id } }, 200);
      }
      default: {
        const id = idOf(fields);
        if (!id.success) return reply({ status: "error", message: id.error.issues[0]?.message ?? "Unknown badge." }, 400);
        return reply({ status: "error", message: "Unknown action.", result: { id: id.data } }, 400);
      }
    }
  } catch (e) {
    // A refusal is answered beside the card it came from.
    const id = idOf(fields);
    return replyFromError<R>(e, id.success ? { result: { id: id.data } } : {}, { asMessage: true });
  }
}
