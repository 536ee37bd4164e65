import type { TitledText } from "./content";

/** Street Vespers (/vespers). */
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
