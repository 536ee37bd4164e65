import type { TitledText } from "./content";

/** Campus ministry (/ministry). */
export const ministry = {
  offers: [
    {
      id: "schools",
      title: "Schools",
      invite: "We would like to invite your team to our school.",
      text: "Assemblies, Christian Union meetings and mentoring sessions for secondary schools: honest talk about faith, purpose and the city.",
    },
    {
      id: "missions",
      title: "Missions",
      invite: "We would like to plan a mission with your team.",
      text: "Mission weeks and weekends for universities and colleges: worship nights, open-air outreach and training for students who want to serve.",
    },
    {
      id: "chaplaincy",
      title: "Chaplaincy",
      invite: "We would like your team to support our chaplaincy.",
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
