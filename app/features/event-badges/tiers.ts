/** The five sponsorship tiers (spec section 3). Amounts are whole KES; the server's word is final. */
export type TierTheme = { primary: string; secondary: string; accent: string; text: string };
import { formatAmount } from "~/lib/core/plain-format";

export type Tier = {
  key: "t1" | "t2" | "t3" | "t4" | "t5";
  name: string;
  subtitle: string;
  amount: number;
  impact: string;
  audience: "Kids/Students" | "Prestige";
  /** How many supporters of this tier the evening aims for. */
  goal: number;
  theme: TierTheme;
};

export const TIERS: readonly Tier[] = [
  {
    key: "t1",
    name: "Friends Badge",
    subtitle: "Kids/Students Tier 5",
    amount: 300,
    impact: "Shares a warm meal and a cup of tea with a friend on the street.",
    audience: "Kids/Students",
    goal: 34,
    theme: { primary: "#1f6f8b", secondary: "#d9f0f5", accent: "#f5b85a", text: "#0b2740" },
  },
  {
    key: "t2",
    name: "Helping Hand",
    subtitle: "Kids/Students Tier 4",
    amount: 500,
    impact: "Puts a hygiene pack and a blanket into someone's hands on a cold night.",
    audience: "Kids/Students",
    goal: 21,
    theme: { primary: "#2e7d4f", secondary: "#e1f3e7", accent: "#f5b85a", text: "#0f2e1c" },
  },
  {
    key: "t3",
    name: "Big Friend",
    subtitle: "Adults Tier 3",
    amount: 1300,
    impact: "Covers a vespers evening's worship, meal and follow-up visits for a street family.",
    audience: "Prestige",
    goal: 13,
    theme: { primary: "#123b5d", secondary: "#e3ecf4", accent: "#e0892b", text: "#0b2740" },
  },
  {
    key: "t4",
    name: "Partner",
    subtitle: "Adults Tier 2",
    amount: 2100,
    impact: "Trains a volunteer in first aid and street counselling for the year's outreach.",
    audience: "Prestige",
    goal: 8,
    theme: { primary: "#6b2d5c", secondary: "#f4e6f0", accent: "#f5b85a", text: "#2d0f26" },
  },
  {
    key: "t5",
    name: "Champion",
    subtitle: "Adults Tier 1",
    amount: 3400,
    impact: "Sponsors a young person's back-to-school kit and a term of mentorship.",
    audience: "Prestige",
    goal: 5,
    theme: { primary: "#7a4a06", secondary: "#fbefd9", accent: "#123b5d", text: "#2e1c02" },
  },
];

export const TIER_KEYS = TIERS.map((t) => t.key) as [Tier["key"], ...Tier["key"][]];

export function findTier(key: string | null | undefined): Tier | undefined {
  return TIERS.find((t) => t.key === key);
}


/** 'Big Friend' -> 'Big Friend badge'; a tier already named a badge ('Friends Badge') is not called one twice. */
export const badgeName = (tierName: string) => (/\bbadge$/i.test(tierName.trim()) ? tierName.trim() : `${tierName.trim()} badge`);

export const formatKes = (amount: number) => formatAmount(amount, "KES");
