import { organisation, type Illustrated, type TitledText } from "./content";

/** The about page: people model, goals, needs and teams. */

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

export const teams: (Illustrated & { name: string; text: string })[] = [
  { name: "Evangelism", text: "Leads worship, prayer and Bible studies on the street and on campus.", image: "/images/team-evangelism.svg", width: 64, height: 64 },
  { name: "Media", text: "Photographs and films our work with consent, and tells the stories well.", image: "/images/team-media.svg", width: 64, height: 64 },
  { name: "Frontend", text: "Builds the website and the outreach app people see and touch.", image: "/images/team-frontend.svg", width: 64, height: 64 },
  { name: "Backend", text: "Keeps the data, badges and payments reliable, private and fast.", image: "/images/team-backend.svg", width: 64, height: 64 },
  { name: "Community & Operations", text: "Welcomes volunteers, keeps the kit ready and follows up after each walk.", image: "/images/team-community.svg", width: 64, height: 64 },
  { name: "Events", text: "Plans vespers nights, concerts and missions, from permits to tea urns.", image: "/images/team-events.svg", width: 64, height: 64 },
];
