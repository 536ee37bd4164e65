/**
 * What an order screen's row action answers (badge orders, merch orders): the order as it now
 * stands, which replaces its row, and the mark of a change that asks first.
 */
export type OrderRowResult<O, C extends string> = { id: string | null; order: O | null; confirm?: C };
