import type { Kysely } from "kysely";

/** Starting posts, written for this site. Staff edit them at /blogs/admin. */
export const seedPosts = [
  {
    slug: "friday-night-on-the-walk",
    title: "Friday night on the walk: what street vespers taught us",
    summary: "Tea, a few songs and a lot of listening. Notes from a fortnightly evening of worship with friends who live on Nairobi's streets.",
    author: "Grace Wanjiru",
    date: "2025-10-17",
    tags: ["vespers", "outreach", "nairobi"],
    image: "/images/blog/vespers-walk.webp",
    url: "https://www.linkedin.com/company/streetlight-outreach",
    audio_video_id: "jNQXAC9IVRw",
    content_html: `<p>Every other Friday, as the matatus thin out and the street lights come on, a small group of us sets out with flasks of tea, a guitar and a box of bread. We call it street vespers: evening prayer, held where our friends already are.</p>
<h2>We came to talk; we stayed to listen</h2>
<p>The first evenings we planned a short message. By the third we had dropped it. What people wanted was to be asked their names and remembered the next time. Now the message is shorter and the listening is longer.</p>
<blockquote>“You came back,” Otieno said. “Most people don't come back.”</blockquote>
<h2>What a vespers evening looks like</h2>
<ul><li>Tea and bread first, always.</li><li>Two or three songs people know, in Swahili and English.</li><li>A psalm read aloud, then time to pray for anyone who asks.</li><li>Follow-ups: a clinic visit, a call to a family, a school form.</li></ul>
<p>If you'd like to walk with us, <a href="/join">join a team</a>. Six hours a week is enough to change someone's Friday.</p>`,
  },
  {
    slug: "campus-mission-week",
    title: "Campus mission week: five days, one university, many questions",
    summary: "From 05 to 18 September 2025 our campus team ran a mission week with a university chaplaincy. Here is what worked, and what we would change.",
    author: "Brian Ochieng",
    date: "2025-09-25",
    tags: ["campus", "ministry", "students"],
    image: "/images/blog/campus-week.webp",
    url: "https://www.linkedin.com/company/streetlight-outreach",
    audio_video_id: null,
    content_html: `<p>Mission weeks are loud by design: tents, music, open-air talks. This year we added something quiet: a room where students could ask any question about faith and get an honest answer, or an honest “we don't know”.</p>
<h2>Three things that worked</h2>
<ol><li><strong>Student hosts.</strong> The chaplaincy's own students led every session; we supported.</li><li><strong>Small tables.</strong> Six chairs, one question, forty minutes.</li><li><strong>Serving together.</strong> On day four the whole group joined a street vespers evening in town.</li></ol>
<p>Want us on your campus? Read about the <a href="/ministry">campus ministry</a> and invite us.</p>`,
  },
  {
    slug: "why-six-hours-a-week",
    title: "Why we ask every volunteer for about six hours a week",
    summary: "A volunteer-led organisation runs on time, not money. Our directors explain the role ladder and why six hours is the number.",
    author: "Street Light Directors",
    date: "2025-08-02",
    tags: ["volunteers", "leadership"],
    image: "/images/blog/six-hours.webp",
    url: "https://www.linkedin.com/company/streetlight-outreach",
    audio_video_id: null,
    content_html: null,
  },
  {
    slug: "building-the-badge-kit",
    title: "Building the badge kit: how our volunteer developers ship",
    summary: "Supporters of the vespers concert receive a badge and a 'Will Be Attending' poster. The frontend and backend teams tell the story of building it.",
    author: "Kevin Mutua",
    date: "2025-11-10",
    tags: ["volunteers", "tech", "vespers"],
    image: "/images/blog/badge-kit.webp",
    url: "https://www.linkedin.com/company/streetlight-outreach",
    audio_video_id: null,
    content_html: `<p>When a supporter confirms their M-Pesa payment for the vespers concert, our staff check the code and press Approve. A minute later the supporter has a badge and a poster with a QR code in their inbox.</p>
<h2>Built by volunteers, for slow phones</h2>
<p>Most of our supporters browse on low-cost Android phones with expensive data. So every page works before any script loads, and the badge is drawn on our server, not on your phone.</p>
<p>Want to build with us? We are looking for <a href="/join">front-end and back-end volunteers</a>.</p>`,
  },
];

export const blogSeed = {
  name: "blog-posts",
  async run(db: Kysely<any>) {
    const now = new Date().toISOString();
    for (const [i, p] of seedPosts.entries()) {
      await db
        .insertInto("blog_posts")
        .values({ ...p, tags: JSON.stringify(p.tags), sort: i, updated_at: now })
        .onConflict((oc) => oc.column("slug").doNothing())
        .execute();
      const polls: [string, string, string[]][] = [
        [`blog-${p.slug}-feedback`, "How did this post land with you?", ["Inspired me", "Learned something", "Will share it", "Prayed"].flatMap((o) => [1, 2, 3, 4, 5].map((r) => `${o}:${r}`))],
        [`blog-${p.slug}-poll`, "What do you think?", ["Yes", "No"]],
      ];
      for (const [id, question, options] of polls) {
        await db.insertInto("polls").values({ id, question, created_at: now }).onConflict((oc) => oc.column("id").doNothing()).execute();
        for (const [sort, option] of options.entries()) {
          await db.insertInto("poll_options").values({ poll_id: id, option, sort }).onConflict((oc) => oc.doNothing()).execute();
        }
      }
    }
  },
};
