import * as art from "../badge-art/render.server";
import { DEFAULT_EVENT, eventDateText, type EventRecord } from "./event";
import { formatKes, TIERS, type Tier } from "./tiers";

/**
 * An order's kit: the supporter badge and 'Will Be Attending' poster of its tier for the evening
 * of the event record, drawn by badge-art (which knows no tiers and no event record).
 */
export type KitInput = Omit<art.KitInput, "tier" | "event"> & { tier: Tier; event: EventRecord };

/** The tier and the evening as the pictures print them. */
const drawn = ({ tier, event, ...rest }: KitInput): art.KitInput => ({
  ...rest,
  tier: { name: tier.name, subtitle: tier.subtitle, impact: tier.impact, price: formatKes(tier.amount), theme: tier.theme },
  event: { title: event.title, dateText: eventDateText(event), venue: event.venue },
});

export const renderBadgePng = (input: KitInput) => art.renderBadgePng(drawn(input));
export const renderPosterPng = (input: KitInput) => art.renderPosterPng(drawn(input));

/** Badge and poster for one order. Call it outside any database transaction. */
export const renderKit = (input: KitInput) => art.renderKit(drawn(input));

/** Fonts read and a badge drawn once at start-up, so the first real render does not pay for it. */
export const warmKit = () => art.warmRenderer(drawn({ tier: TIERS[0]!, name: "Warm Up", shareUrl: "https://example.org", event: DEFAULT_EVENT }));
