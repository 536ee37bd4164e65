/**
 * The organisation's identity, in one place. The working name is neutral on purpose:
 * change it here and every page, email and share card follows.
 */
export const site = {
  name: "Street Light Outreach",
  shortName: "Street Light",
  tagline: "Faith, mission and street outreach in Nairobi",
  city: "Nairobi",
  contactEmail: "hello@streetlight-outreach.org",
  applicationsEmail: "hello@streetlight-outreach.org",
  ministryEmail: "ministry@streetlight-outreach.org",
  merchEmail: "merch@streetlight-outreach.org",
  mailFrom: "Street Light Outreach <no-reply@streetlight-outreach.org>",
  phone: "+254 700 000 000",
  payments: {
    merchPaybill: "880100",
    merchAccount: "321325",
    eventPaybill: "880100",
    eventAccountReference: "VESPERS",
    bankAccountName: "Street Light Outreach",
  },
  social: {
    linkedin: "https://www.linkedin.com/company/streetlight-outreach",
    instagram: "https://www.instagram.com/streetlight.outreach",
    whatsapp: "https://wa.me/254700000000",
  },
  appDownloadUrl: "https://play.google.com/store/apps/details?id=org.streetlight.outreach",
  themeColor: "#123b5d",
} as const;

export type Site = typeof site;
