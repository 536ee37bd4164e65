import type { JOIN_ROLES } from "~/features/applications/roles";

/**
 * The organisation's own words for the public pages (spec section 3, "Organisation content").
 * Client-safe plain data. This module holds what the home page shows (and what several pages
 * share); content only one page uses lives beside it (about.ts, join.ts, vespers.ts,
 * ministry.ts), because a module several routes import is downloaded whole with any of them
 * and the home page's JavaScript budget is tight.
 */

export type JoinRole = (typeof JOIN_ROLES)[number];

export type Illustrated = { image: string; width: number; height: number };

export type Pillar = Illustrated & { id: string; name: string; summary: string; points: string[] };

export type TitledText = { title: string; text: string };

export const organisation = {
  hoursPerWeek: 6,
  about:
    "We are a community of Nairobi believers who take faith out of the building and onto the street. On Friday evenings we walk the city centre with tea, bread, songs and open Bibles, and we stay long enough to learn people's names. Every one of us is a volunteer: students, nurses, developers, designers and drivers who give a few hours a week.",
  mission:
    "To carry the light of Christ to the streets of Nairobi through presence, prayer and practical care, and to equip young volunteers to serve with skill and humility.",
  vision:
    "A city where no one on the street is nameless or forgotten: every street family known, prayed for and walked with until they find a way home, to work or to school.",
} as const;

export const pillars: Pillar[] = [
  {
    id: "spiritual",
    name: "Spiritual Engagement",
    summary: "Prayer, worship and the Word, shared where people actually are.",
    points: ["Street Vespers every other Friday", "Bible studies and prayer circles", "Campus missions and chaplaincy"],
    image: "/images/pillar-spiritual.svg",
    width: 120,
    height: 120,
  },
  {
    id: "community",
    name: "Community & People",
    summary: "Knowing people by name, and caring for the volunteers who serve them.",
    points: ["Meals, hygiene kits and first aid", "Follow-up and mentoring", "Onboarding and care for volunteers"],
    image: "/images/pillar-community.svg",
    width: 120,
    height: 120,
  },
  {
    id: "alliances",
    name: "Alliances & Structure",
    summary: "Partners, systems and clear roles, so the work outlasts any one of us.",
    points: ["Churches, clinics and NGOs we refer to", "Tech, media and the outreach app", "Fundraising that sustains the work"],
    image: "/images/pillar-alliances.svg",
    width: 120,
    height: 120,
  },
];

/** Home stats, in the spec's order and words. */
export const homeStats = [
  { label: "Applications", value: "2+" },
  { label: "Volunteers", value: "20+" },
  { label: "Avenues", value: "7+" },
  { label: "Ministries", value: "10+" },
] as const;

export const whatWeDo: { title: string; items: string[] }[] = [
  {
    title: "Street outreach",
    items: ["Fortnightly Street Vespers walks", "Tea, bread and warm meals", "Hygiene kits and blankets in the cold months"],
  },
  {
    title: "Faith and discipleship",
    items: ["Open-air worship and prayer", "Small-group Bible studies", "Campus missions and chaplaincy support"],
  },
  {
    title: "Care and dignity",
    items: ["First aid with volunteer nurses", "Referrals to clinics, rehab and legal aid", "Back-to-school and family reunion support"],
  },
  {
    title: "Media and technology",
    items: ["The outreach app and this website", "Stories told with consent and care", "Badges that recognise volunteers and supporters"],
  },
];

/** Reasons to join. */
export const reasons: TitledText[] = [
  { title: "Serve with purpose", text: "Your hours turn into meals shared, names remembered and prayers answered." },
  { title: "Grow real skills", text: "Ship software, lead a team, plan events and tell stories, with mentors beside you." },
  { title: "Belong to a family", text: "Friday walks, team retreats and people who will pray for you by name." },
  { title: "Earn recognition", text: "Verified badges mark what you have done, for your CV and your LinkedIn." },
];

/** One line per open role, in roles.ts order (the home page lists the roles from here); typed so a new role cannot go undescribed. */
export const roleDescriptions: Record<JoinRole, string> = {
  "Front-End Dev": "Build accessible, fast pages and app screens in React.",
  "Back-End Dev": "Design the APIs, data and jobs behind badges, orders and mail.",
  DevOps: "Keep our servers, backups and deployments calm and boring.",
  "UI/UX & Design": "Shape clear, kind interfaces, posters and brand assets.",
  "Writer / Content": "Write stories, devotionals, posts and newsletters.",
  "Evangelism / Bible Studies": "Lead worship, prayer and Bible studies on the street.",
  "Media / Video": "Shoot, edit and share photos and short films, with consent.",
  "Events / Operations": "Run vespers nights, concerts and missions smoothly.",
  "Community & Onboarding": "Welcome new volunteers and help them find their team.",
};
