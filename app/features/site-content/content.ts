import type { JOIN_ROLES } from "~/features/applications/roles";

/**
 * The organisation's own words for the public pages (spec section 3, "Organisation content").
 * Client-safe: plain data, rendered by the home, about and join pages.
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

export const peopleModel = {
  intro: `We are 100% volunteer-led. Nobody is paid, so we keep the structure light and the roles clear. Most people give about ${organisation.hoursPerWeek} hours a week.`,
  ladder: [
    { title: "Directors", text: "Hold the vision, guard our values and make the few decisions that shape the year." },
    { title: "Pillar Leads", text: "Each carries one pillar and makes sure its teams have what they need." },
    { title: "Team Leads", text: "Run a team week to week: plan the work, welcome newcomers, pray for their people." },
    { title: "Contributors", text: "Do the work that people see: on the street, behind a camera or in the code." },
  ] satisfies TitledText[],
};

export const goals = [
  { figure: "50", label: "trained medical and missionary volunteers" },
  { figure: "3,000", label: "active users on the outreach app" },
  { figure: "KES 200,000", label: "in self-sustaining revenue" },
] as const;

/** What we are looking for. */
export const needs: string[] = [
  "People who love Jesus and love people, and are patient with both",
  "About six hours a week you can give reliably, even in exam season",
  "Nurses, clinical officers and counsellors for care nights",
  "Developers, designers, writers and filmmakers who want their skills to serve",
  "Organisers who enjoy checklists, logistics and making others comfortable",
];

/** Reasons to join. */
export const reasons: TitledText[] = [
  { title: "Serve with purpose", text: "Your hours turn into meals shared, names remembered and prayers answered." },
  { title: "Grow real skills", text: "Ship software, lead a team, plan events and tell stories, with mentors beside you." },
  { title: "Belong to a family", text: "Friday walks, team retreats and people who will pray for you by name." },
  { title: "Earn recognition", text: "Verified badges mark what you have done, for your CV and your LinkedIn." },
];

export const teams: (Illustrated & { name: string; text: string })[] = [
  { name: "Evangelism", text: "Leads worship, prayer and Bible studies on the street and on campus.", image: "/images/team-evangelism.svg", width: 64, height: 64 },
  { name: "Media", text: "Photographs and films our work with consent, and tells the stories well.", image: "/images/team-media.svg", width: 64, height: 64 },
  { name: "Frontend", text: "Builds the website and the outreach app people see and touch.", image: "/images/team-frontend.svg", width: 64, height: 64 },
  { name: "Backend", text: "Keeps the data, badges and payments reliable, private and fast.", image: "/images/team-backend.svg", width: 64, height: 64 },
  { name: "Community & Operations", text: "Welcomes volunteers, keeps the kit ready and follows up after each walk.", image: "/images/team-community.svg", width: 64, height: 64 },
  { name: "Events", text: "Plans vespers nights, concerts and missions, from permits to tea urns.", image: "/images/team-events.svg", width: 64, height: 64 },
];

/** One line per open role; typed so a new role in roles.ts cannot go undescribed. */
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

export const joinSteps: TitledText[] = [
  { title: "Apply", text: "Send the form below. It takes three minutes; tell us what you love doing." },
  { title: "Intro & Alignment", text: "A short call with a Team Lead about our faith, our values and your time." },
  { title: "Onboarding", text: "Join a Friday walk, meet your team and get access to the tools you need." },
  { title: "Grow & Serve", text: "Take on real work, with a mentor, and grow into leading others." },
];

export const joinFaq: { q: string; a: string }[] = [
  {
    q: "Do I need to be a Christian to volunteer?",
    a: "Our work is openly Christian and our leaders share that faith. If you are curious and respectful of it, talk to us: many people start on a technical or events team and find their place.",
  },
  {
    q: "How much time does it take?",
    a: `About ${organisation.hoursPerWeek} hours a week, including a fortnightly Friday walk if you are on a street-facing team. Tell us about exams, shifts and family: we plan around them.`,
  },
  {
    q: "Can I volunteer remotely?",
    a: "Yes, for tech, design, writing and media roles. We still hope you join a vespers evening in Nairobi when you can.",
  },
  {
    q: "Is it safe to go out on the streets at night?",
    a: "We walk in groups with experienced leads, follow clear safeguarding guidelines and never send anyone out alone. Your first nights are spent listening and learning.",
  },
];

/* Street Vespers (/vespers) */

export const vespers = {
  rhythm: "Every other Friday evening, on a walk through Nairobi's city centre",
  nextEvent: {
    title: "Street Vespers Fundraising Concert",
    date: "23 November 2025",
    dateTime: "2025-11-23",
    partnerTarget: "468,500 Ksh",
    text: "An evening of gospel music, spoken word and stories from the street. Every badge and every partner gift goes straight into the next season of outreach: hot meals, hygiene kits, first-aid supplies and school fees for young people leaving the street.",
    uses: ["A year of fortnightly meals on the walk", "First-aid and hygiene kits for care nights", "Back-to-school support for twelve young people"],
  },
  vision:
    "Street Vespers exists so that the city's evening prayer is not only said in warm halls but also on cold pavements, with the people who sleep there.",
  mission:
    "To gather every other Friday for worship, the Word and a shared meal on the street; to listen, pray and walk with street families; and to connect them with the care, work and homes that lead off the street.",
  scaling: [
    { title: "More routes", text: "From one loop of the city centre to three routes, each with a trained lead and a regular team." },
    { title: "Trained teams", text: "Every volunteer trained in safeguarding, first aid and listening before they lead a group." },
    { title: "Campus chapters", text: "Students running vespers near their own campuses, with our leads as mentors." },
  ] satisfies TitledText[],
  pathway: [
    { title: "Walk with us", text: "Come to a Friday evening. Listen, carry the tea, learn names." },
    { title: "Serve a night", text: "Take a role: worship, prayer, first aid, follow-up or logistics." },
    { title: "Lead a circle", text: "Lead a small group on the walk, with a mentor beside you." },
    { title: "Send others", text: "Train new leads and start a route or campus chapter." },
  ] satisfies TitledText[],
  partners: [
    { name: "Community Clinic Network", image: "/images/partners/clinic.svg" },
    { name: "City Kitchen Collective", image: "/images/partners/kitchen.svg" },
    { name: "Youth Mentors Circle", image: "/images/partners/youth.svg" },
    { name: "Legal Aid Volunteer Desk", image: "/images/partners/legal.svg" },
    { name: "Print & Design Studio", image: "/images/partners/print.svg" },
    { name: "Campus Fellowship", image: "/images/partners/fellowship.svg" },
    { name: "Clean Water Trust", image: "/images/partners/water.svg" },
    { name: "Transport Co-operative", image: "/images/partners/transport.svg" },
  ],
  objectives: [
    "Hold a vespers evening every other Friday, without gaps, through 2026",
    "Know by name, and follow up with, at least 150 people on our routes",
    "Train 50 medical and missionary volunteers to serve safely",
    "Refer people to clinics, rehab, legal aid and family reunion with a warm hand-over",
    "Fund the work through badges, merchandise and partners, not emergency appeals",
  ],
  timeline: [
    { when: "2023", title: "A flask of tea", text: "A handful of friends began walking the city centre on Friday nights with tea, bread and a guitar." },
    { when: "Feb 2025", title: "Street Vespers begins", text: "The walks became a fortnightly gathering with worship, a short word, prayer teams and a meal." },
    { when: "2025+", title: "Growing carefully", text: "New routes, campus chapters, trained medical volunteers and an app to keep follow-up personal." },
  ],
  whoWeServe: [
    { title: "Street families", text: "Parents and children who sleep in doorways, under bridges and in the back lanes." },
    { title: "Street-connected youth", text: "Young people who work and sleep on the street, many of them out of school." },
    { title: "Young mothers", text: "Girls and women raising babies on the street, often alone." },
    { title: "Our volunteers", text: "Students and young professionals learning to serve, lead and love their city." },
  ] satisfies TitledText[],
  growth: [
    { title: "Badges and events", text: "Supporters choose a badge tier for the concert; the badge and a poster come by email." },
    { title: "Merchandise", text: "Every shirt and mug from our pop-up store funds meals and kits." },
    { title: "Partners", text: "Churches, businesses and friends who give monthly, and clinics that give their time." },
  ] satisfies TitledText[],
  guidelines: [
    "Never go alone: stay with your group and your lead all evening",
    "Ask before any photo, and never photograph children's faces",
    "Give food, not cash; point needs beyond the evening to the follow-up team",
    "Listen more than you speak, and pray with people, not at them",
    "Sit at eye level, use names, and keep every story confidential",
    "Report any safeguarding concern to the lead that same night",
  ],
  environment: [
    {
      title: "Strengths",
      items: ["Committed volunteers with many skills", "Trust built over two years on the same streets", "Our own app and tools"],
    },
    {
      title: "Challenges",
      items: ["Volunteers' time shifts with exams and jobs", "Unpredictable weather and city rules", "Irregular funding"],
    },
    {
      title: "Opportunities",
      items: ["Campus fellowships ready to partner", "Clinics and NGOs open to referrals", "Supporters who want to give online"],
    },
    {
      title: "Risks",
      items: ["Safety at night", "Dependency if care is not paired with a way forward", "Burn-out among a few key people"],
    },
  ],
  recommendations: [
    "Keep the fortnightly rhythm sacred: consistency builds trust on the street",
    "Train before we grow: no new route without a trained lead and first-aider",
    "Pair every meal with a next step: a referral, a call, a follow-up visit",
    "Share leadership widely so no one carries too much",
    "Build steady income from badges, merchandise and monthly partners",
  ],
};

/* Campus ministry (/ministry) */

export const ministry = {
  offers: [
    {
      id: "schools",
      title: "Schools",
      text: "Assemblies, Christian Union meetings and mentoring sessions for secondary schools: honest talk about faith, purpose and the city.",
    },
    {
      id: "missions",
      title: "Missions",
      text: "Mission weeks and weekends for universities and colleges: worship nights, open-air outreach and training for students who want to serve.",
    },
    {
      id: "chaplaincy",
      title: "Chaplaincy",
      text: "Support for chaplains and student leaders: prayer, pastoral visits, and a steady team you can call on through the term.",
    },
  ],
  missionWeek: {
    title: "University mission week",
    dates: "05-18 September 2025",
    start: "2025-09-05",
    end: "2025-09-18",
    text: "Two weeks of lunchtime worship, evening talks, hostel Bible studies and a Friday street walk with students, planned together with the Christian Union and the chaplaincy.",
  },
  stories: [
    {
      place: "A public university, Nairobi",
      title: "Forty students on a Friday night",
      text: "After a talk in the main hall, forty students joined the next Street Vespers walk. Twelve of them now serve on our teams.",
    },
    {
      place: "A girls' secondary school, Kiambu",
      title: "Questions in the dining hall",
      text: "A Sunday assembly turned into two hours of questions about faith, fear and exams. The Christian Union now meets twice a week.",
    },
    {
      place: "A medical training college",
      title: "Nurses on the street",
      text: "Student nurses ran a first-aid night on the walk, then designed our care-night checklist.",
    },
    {
      place: "A technical institute",
      title: "Code for a cause",
      text: "Students built the first version of our check-in screen during a weekend mission and kept maintaining it.",
    },
    {
      place: "A teachers' college",
      title: "Mentors for the next term",
      text: "Trainee teachers now mentor young people returning to school from the street.",
    },
  ],
  journey: [
    { title: "Map the story", text: "We listen to your leaders: your students, your calendar and what you hope God will do." },
    { title: "Equip your team", text: "We train your student leaders in worship, outreach, follow-up and safeguarding." },
    { title: "Work together", text: "We run the sessions side by side with your team, never as outsiders taking over." },
    { title: "Hand over & support", text: "We hand the work to your leaders and stay on call with prayer, visits and resources." },
  ] satisfies TitledText[],
  replyPromise: "within 48 hours",
};
