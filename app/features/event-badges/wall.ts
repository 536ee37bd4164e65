/** The supporter wall's rules, shared by the order form, its schema and the wall (no zod here: the form ships it). */
export const WALL_NAME_MAX_LENGTH = 40;
export const WALL_NAME_PATTERN = /^[\p{L}\p{M}' .-]*$/u;
export const WALL_NAME_MESSAGE = `The name for the wall may have letters, spaces, apostrophes and hyphens (at most ${WALL_NAME_MAX_LENGTH}).`;

/** The name a supporter is listed under: the one they chose, else their first name. */
export const wallNameOf = (order: { name: string; wallName: string }) => order.wallName.trim() || order.name.trim().split(/\s+/)[0] || "";
