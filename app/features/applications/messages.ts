import { site } from "~/lib/core/site";

/** The join form's limits: its schema and its inputs' maxlength. */
export const APPLICATION_NAME_MAX_LENGTH = 120;
export const APPLICATION_MESSAGE_MAX_LENGTH = 2000;

export const applicationMessages = {
  hero: {
    success: "Thanks! We will be in touch.",
    failure: `Could not send automatically. Email us at ${site.applicationsEmail}.`,
    pending: "Sending…",
  },
  join: {
    failure: (detail: string) => `Could not send automatically (${detail}). You can email us directly.`,
    pending: "Sending…",
  },
} as const;

/** A pre-filled email to the organisation, for when the form cannot be sent. */
export function applicationMailto(values: { name?: string; role?: string; message?: string }) {
  const subject = `Volunteer application: ${values.role || "General Interest"}`;
  const body = [
    `Name: ${values.name ?? ""}`,
    `Role: ${values.role ?? ""}`,
    "",
    values.message ?? "",
  ].join("\n");
  return `mailto:${site.applicationsEmail}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
