/** The supporter wall's rules, shared by the order form, its schema and the wall (no zod here: the form ships it). */
export const WALL_NAME_MAX_LENGTH = 40;
export const WALL_NAME_PATTERN = /^[\p{L}\p{M}' .-]*$/u;
export const WALL_NAME_MESSAGE = `The name for the wall may have letters, spaces, apostrophes and hyphens (at most ${WALL_NAME_MAX_LENGTH}).`;

const NOT_ON_THE_WALL = /[^\p{L}\p{M}' .-]+/gu;

/**
 * The name a supporter is listed under: the one they chose, else their first name, with the
 * wall's rules applied to whatever is shown (letters, spaces, apostrophes, hyphens; at most
 * WALL_NAME_MAX_LENGTH): a full name typed as "<b>Joy</b>" or "Ann\u202e" shows as "bJoyb", "Ann".
 */
export const wallNameOf = (order: { name: string; wallName: string }) => {
  const shown = order.wallName.trim() || order.name.trim().split(/\s+/)[0] || "";
  return shown.replace(NOT_ON_THE_WALL, "").replace(/\s+/g, " ").trim().slice(0, WALL_NAME_MAX_LENGTH).trim();
};
