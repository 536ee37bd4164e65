/** The nine open roles, in the spec's order; Front-End Dev is the join form's default. */
export const JOIN_ROLES = [
  "Front-End Dev",
  "Back-End Dev",
  "DevOps",
  "UI/UX & Design",
  "Writer / Content",
  "Evangelism / Bible Studies",
  "Media / Video",
  "Events / Operations",
  "Community & Onboarding",
] as const;
export const GENERAL_INTEREST = "General Interest";
export const ALL_ROLES = [...JOIN_ROLES, GENERAL_INTEREST] as const;
