import { describe, expect, it } from "vitest";
import { feedbackPollId, feedbackPollOptions, isExpiredCover, parseTags, postPollId, relatedPosts, type BlogPost } from "./blog";

const post = (slug: string, tags: string[], date = "2025-01-01"): BlogPost => ({
  slug,
  title: slug,
  summary: "",
  author: "",
  date,
  tags,
  image: "",
  url: "",
});

const slugs = (posts: BlogPost[]) => posts.map((p) => p.slug);

describe("relatedPosts", () => {
  const current = post("current", ["vespers", "outreach", "nairobi"], "2025-06-01");

  it("ranks by the number of shared tags", () => {
    const posts = [
      current,
      post("one-tag", ["vespers"], "2025-12-01"),
      post("three-tags", ["nairobi", "outreach", "vespers"], "2024-01-01"),
      post("two-tags", ["outreach", "nairobi", "campus"], "2025-03-01"),
    ];
    expect(slugs(relatedPosts(posts, current))).toEqual(["three-tags", "two-tags", "one-tag"]);
  });

  it("returns at most three, and fewer when fewer share a tag", () => {
    const many = [current, ...["a", "b", "c", "d", "e"].map((s, i) => post(s, ["vespers"], `2025-0${i + 1}-01`))];
    expect(relatedPosts(many, current)).toHaveLength(3);
    expect(relatedPosts([current, post("x", ["vespers"])], current)).toHaveLength(1);
    expect(relatedPosts(many, current, 2)).toHaveLength(2);
  });

  it("leaves out posts with no shared tag (score 0), and the post itself", () => {
    const posts = [current, post("other", ["campus", "students"]), post("empty", []), { ...current, title: "copy" }];
    expect(relatedPosts(posts, current)).toEqual([]);
  });

  it("breaks ties newest first", () => {
    const posts = [
      post("older", ["outreach"], "2025-02-10"),
      current,
      post("newest", ["nairobi"], "2025-11-30"),
      post("middle", ["vespers"], "2025-07-04"),
    ];
    expect(slugs(relatedPosts(posts, current))).toEqual(["newest", "middle", "older"]);
  });

  it("compares tags without regard to case", () => {
    const posts = [current, post("upper", ["VESPERS"]), post("mixed", ["Outreach", "Nairobi"])];
    expect(slugs(relatedPosts(posts, current))).toEqual(["mixed", "upper"]);
  });

  it("a post without tags has no related posts", () => {
    const bare = post("bare", []);
    expect(relatedPosts([bare, current, post("x", ["vespers"])], bare)).toEqual([]);
  });
});

describe("parseTags", () => {
  it("splits on commas, trims, and drops blanks", () => {
    expect(parseTags(" vespers, outreach ,,  nairobi , ")).toEqual(["vespers", "outreach", "nairobi"]);
  });

  it("an empty or blank text is no tags", () => {
    expect(parseTags("")).toEqual([]);
    expect(parseTags(" , ,")).toEqual([]);
  });

  it("keeps spaces inside a tag and its case", () => {
    expect(parseTags("Street Vespers, Campus ministry")).toEqual(["Street Vespers", "Campus ministry"]);
  });
});

describe("poll ids and the feedback template (spec section 9)", () => {
  it("the feedback poll is blog-{slug}-feedback, four items rated 1 to 5", () => {
    expect(feedbackPollId("friday-night")).toBe("blog-friday-night-feedback");
    const options = feedbackPollOptions();
    expect(options).toHaveLength(20);
    expect(options.slice(0, 5)).toEqual(["Inspired me:1", "Inspired me:2", "Inspired me:3", "Inspired me:4", "Inspired me:5"]);
    expect(options).toContain("Prayed:5");
  });

  it("each post's question poll has its own id", () => {
    expect(postPollId("friday-night")).toBe("blog-friday-night-poll");
    expect(postPollId("friday-night")).not.toBe(feedbackPollId("friday-night"));
  });
});

describe("isExpiredCover", () => {
  const at = Date.parse("2026-01-01T00:00:00Z");
  it("a LinkedIn media address past its e= time is expired; before it, or any other address, is not", () => {
    expect(isExpiredCover("https://media.licdn.com/dms/image/v2/D4D12AQ1/article-cover_image-shrink_720_1280/0/1757000000000?e=1759968000&v=beta&t=abc", at)).toBe(true);
    expect(isExpiredCover("https://media.licdn.com/dms/image/v2/D4D12AQ1/x?e=1893456000&v=beta", at)).toBe(false);
    expect(isExpiredCover("https://media.licdn.com/dms/image/v2/D4D12AQ1/x?v=beta", at)).toBe(false);
    expect(isExpiredCover("https://images.example.org/x.jpg?e=1759968000", at)).toBe(false);
    expect(isExpiredCover("/images/blog/a.webp", at)).toBe(false);
  });
});
