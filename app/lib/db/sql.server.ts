import { sql, type RawBuilder, type SqlBool } from "kysely";

/** `text` for a LIKE pattern (with `escape '\'`): its %, _ and \ stand only for themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `text` as a LIKE pattern that finds it anywhere: %, _ and \ in it stand only for themselves. */
export const likeContaining = (text: string) => `%${escapeLike(text)}%`;

/**
 * A staff search: true where any of `columns` holds `text`, ignoring case. The text is matched
 * as typed (a % or _ in it is not a wildcard). Columns are SQL references such as "o.name".
 */
export function anyColumnContains(columns: readonly string[], text: string): RawBuilder<SqlBool> {
  const pattern = likeContaining(text.toLowerCase());
  const tests = columns.map((col) => sql<SqlBool>`lower(${sql.ref(col)}) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}
