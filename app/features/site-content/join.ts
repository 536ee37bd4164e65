import { organisation, type TitledText } from "./content";

/** The join page's steps and questions. */
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
