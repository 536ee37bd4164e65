/**
 * Where the Open Badges documents of an award live on this site (open-badges serves them). A
 * badge PNG carries its assertion's address, baked in (bake.server.ts), so the programmes that
 * make badge files (event badges, team badges) need these addresses too.
 */
export const obPaths = {
  issuer: "/badges/issuer.json",
  badgeClass: (id: string) => `/badges/classes/${id}.json`,
  assertion: (id: string) => `/badges/assertions/${id}.json`,
  credential: (id: string) => `/badges/credentials/${id}.jwt`,
  verify: (id: string) => `/badges/verify/${id}`,
  card: (id: string) => `/badges/cards/${id}.png`,
};
