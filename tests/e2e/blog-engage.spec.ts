import { holdPosts, hydrated, markWindow } from "../support/e2e-fixtures";
import {
  clientIdOf,
  countOf,
  expect,
  otherClientId,
  postUrl,
  RATING_SAVED,
  reactionRows,
  test,
  voteRows,
} from "../support/e2e-blog";

const votes = (n: number) => (n === 1 ? "1 vote" : `${n} votes`);

test("react and undo: the count follows, the rows follow, and it never goes below 0", async ({
  page,
  context,
  request,
  jsEnabled,
  ownPost,
}) => {
  const { slug } = ownPost;
  await page.goto(`/blogs/${slug}`);
  const bar = page.getByRole("region", { name: "React to this post" });
  const like = bar.getByRole("button", { name: /^Like\b/ });
  const clap = bar.getByRole("button", { name: /^Applause\b/ });
  await expect(bar.getByRole("button")).toHaveCount(5);
  await expect(bar.locator(".reaction-label")).toHaveText(["Like", "Love", "Insightful", "Praying", "Applause"]);
  await expect(countOf(like)).toHaveText("0");
  await expect(like).toHaveAttribute("aria-pressed", "false");

  // Press: one more, pressed.
  if (jsEnabled) {
    await hydrated(like);
    const stillSamePage = await markWindow(page);
    const release = await holdPosts(page, `/blogs/${slug}`);
    await like.click();
    // At once, before the server has answered.
    await expect(countOf(like)).toHaveText("1");
    await expect(like).toHaveAttribute("aria-pressed", "true");
    expect(reactionRows(slug)).toEqual([]);
    release();
    await expect(bar.locator(".reaction-list")).toHaveAttribute("aria-busy", "false");
    await stillSamePage();
  } else {
    await like.click();
    await expect(page).toHaveURL(new RegExp(`^${postUrl(slug)}(#reactions)?$`));
  }
  await expect(countOf(like)).toHaveText("1");
  await expect(like).toHaveAttribute("aria-pressed", "true");
  const cid = await clientIdOf(context);
  await expect.poll(() => reactionRows(slug)).toEqual([{ reaction: "like", cid }]);

  // Another kind counts on its own.
  await clap.click();
  await expect(countOf(clap)).toHaveText("1");
  await expect(clap).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => reactionRows(slug)).toEqual([
    { reaction: "clap", cid },
    { reaction: "like", cid },
  ]);
  await expect(countOf(like)).toHaveText("1");

  // Another reader's undo cannot take this reader's reaction away.
  const other = await request.post("/api/reactions.php", {
    headers: { "X-Client-Id": otherClientId() },
    data: { slug, reaction: "like", undo: true },
  });
  expect(other.status()).toBe(200);
  expect(await other.json()).toMatchObject({ ok: true, counts: { like: 1, clap: 1 } });

  // Reloaded, the page remembers what this reader chose (by client id).
  await page.reload();
  await expect(countOf(like)).toHaveText("1");
  await expect(like).toHaveAttribute("aria-pressed", "true");

  // A stale second tab still shows Like pressed with 1 after this one takes it back.
  const stale = await context.newPage();
  await stale.goto(`/blogs/${slug}`);
  const staleLike = stale.getByRole("region", { name: "React to this post" }).getByRole("button", { name: /^Like\b/ });
  await expect(staleLike).toHaveAttribute("aria-pressed", "true");
  if (jsEnabled) await hydrated(staleLike);

  // Press again: back down.
  if (jsEnabled) await hydrated(like);
  await like.click();
  await expect(countOf(like)).toHaveText("0");
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => reactionRows(slug)).toEqual([{ reaction: "clap", cid }]);

  // The stale tab's undo of a reaction that is gone: 0, never -1.
  await staleLike.click();
  await expect(countOf(staleLike)).toHaveText("0");
  await expect(staleLike).toHaveAttribute("aria-pressed", "false");
  await stale.reload();
  await expect(countOf(staleLike)).toHaveText("0");
  expect(reactionRows(slug)).toEqual([{ reaction: "clap", cid }]);
  await stale.close();

  if (jsEnabled) {
    // This browser remembers 'Love' (say, from before its data was cleared) though the server
    // has none: pressing it takes it back without going below 0.
    await page.evaluate((key) => localStorage.setItem(key, JSON.stringify(["love"])), `blog.reactions.${slug}`);
    await page.reload();
    const love = bar.getByRole("button", { name: /^Love\b/ });
    await expect(love).toHaveAttribute("aria-pressed", "true");
    await expect(countOf(love)).toHaveText("0");
    await hydrated(love);
    const release = await holdPosts(page, `/blogs/${slug}`);
    await love.click();
    await expect(love).toHaveAttribute("aria-pressed", "false");
    await expect(countOf(love)).toHaveText("0");
    release();
    await expect(bar.locator(".reaction-list")).toHaveAttribute("aria-busy", "false");
    await expect(countOf(love)).toHaveText("0");
    // No error to show (the status line stays empty, and so hidden).
    await expect(bar.locator('[role="status"]')).toHaveText("");
  }

  // The clap goes too: nothing left.
  await clap.click();
  await expect(countOf(clap)).toHaveText("0");
  await expect.poll(() => reactionRows(slug)).toEqual([]);
  const counts = await request.get(`/api/reactions.php?slug=${slug}`);
  expect(await counts.json()).toMatchObject({ ok: true, counts: { like: 0, love: 0, insightful: 0, pray: 0, clap: 0 } });
});

test("vote: 'Yes' in the question poll counts; a rating is saved, replaces the earlier one, and shows no counts", async ({
  page,
  context,
  request,
  jsEnabled,
  ownPost,
}) => {
  const { slug } = ownPost;
  const pollId = `blog-${slug}-poll`;
  const feedbackId = `blog-${slug}-feedback`;
  // Another reader rated 'Inspired me' before: a count this page must not show.
  const someoneElse = otherClientId();
  const earlier = await request.post("/api/polls.php", {
    headers: { "X-Client-Id": someoneElse },
    data: { id: feedbackId, option: "Inspired me:4" },
  });
  expect(earlier.status()).toBe(200);

  await page.goto(`/blogs/${slug}`);
  const poll = page.getByRole("group", { name: "What do you think?" });
  const yes = poll.getByRole("button", { name: /^Yes\b/ });
  const no = poll.getByRole("button", { name: /^No\b/ });
  await expect(countOf(yes)).toHaveText("0 votes");
  await expect(countOf(no)).toHaveText("0 votes");
  await expect(yes).toHaveAttribute("aria-pressed", "false");

  if (jsEnabled) {
    await hydrated(yes);
    const stillSamePage = await markWindow(page);
    const release = await holdPosts(page, `/blogs/${slug}`);
    await yes.click();
    // At once: this vote.
    await expect(countOf(yes)).toHaveText("1 vote");
    await expect(yes).toHaveAttribute("aria-pressed", "true");
    // Meanwhile another reader votes Yes too: the server's answer counts both.
    const meanwhile = await request.post("/api/polls.php", {
      headers: { "X-Client-Id": otherClientId() },
      data: { id: pollId, option: "Yes" },
    });
    expect(await meanwhile.json()).toMatchObject({ ok: true, options: { Yes: 1, No: 0 } });
    release();
    await expect(countOf(yes)).toHaveText("2 votes");
    await stillSamePage();
  } else {
    await yes.click();
    await expect(page).toHaveURL(new RegExp(`^${postUrl(slug)}(#engage)?$`));
    await expect(countOf(yes)).toHaveText("1 vote");
  }
  await expect(yes).toHaveAttribute("aria-pressed", "true");
  await expect(countOf(no)).toHaveText("0 votes");
  const cid = await clientIdOf(context);
  await expect.poll(() => voteRows(pollId).filter((v) => v.cid === cid)).toEqual([{ option: "Yes", cid }]);
  const yesVotes = jsEnabled ? 2 : 1;
  expect(voteRows(pollId).filter((v) => v.option === "Yes")).toHaveLength(yesVotes);

  // A second press of the same option does not count twice.
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(`/blogs/${slug}`));
  await yes.click();
  await answered;
  await expect(countOf(yes)).toHaveText(votes(yesVotes));
  await expect.poll(() => voteRows(pollId).filter((v) => v.cid === cid)).toEqual([{ option: "Yes", cid }]);

  // One answer per reader: 'No' moves the vote from Yes, it does not add a second one.
  const moved = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(`/blogs/${slug}`));
  await no.click();
  await moved;
  await expect(countOf(no)).toHaveText("1 vote");
  await expect(countOf(yes)).toHaveText(votes(yesVotes - 1));
  await expect(no).toHaveAttribute("aria-pressed", "true");
  await expect(yes).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => voteRows(pollId).filter((v) => v.cid === cid)).toEqual([{ option: "No", cid }]);

  // The feedback poll: rate 'Inspired me' 4.
  const feedback = page.getByRole("group", { name: "How did this post land with you?" });
  await expect(feedback.getByRole("group")).toHaveText([/^Inspired me/, /^Learned something/, /^Will share it/, /^Prayed/]);
  const inspired = feedback.getByRole("group", { name: "Inspired me" });
  const four = inspired.getByRole("button", { name: "4 of 5" });
  const five = inspired.getByRole("button", { name: "5 of 5" });
  await expect(inspired.getByRole("button")).toHaveCount(5);
  await expect(four).toHaveAttribute("aria-pressed", "false");
  if (jsEnabled) await hydrated(four);
  await four.click();
  await expect(feedback.getByRole("status")).toHaveText(RATING_SAVED);
  await expect(four).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => voteRows(feedbackId).filter((v) => v.cid === cid)).toEqual([{ option: "Inspired me:4", cid }]);
  // No counts: apart from its instructions and the 1-5 buttons, the poll shows no number at all.
  const numbersShown = () =>
    feedback.evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll("button, p.small").forEach((n) => n.remove());
      return copy.textContent?.match(/\d+/g) ?? [];
    });
  expect(await numbersShown()).toEqual([]);
  await expect(feedback.locator(".poll-count")).toHaveCount(0);

  // Rating it 5 replaces the 4 for this reader; the other reader's 4 stays.
  await five.click();
  await expect(five).toHaveAttribute("aria-pressed", "true");
  await expect(four).toHaveAttribute("aria-pressed", "false");
  await expect(feedback.getByRole("status")).toHaveText(RATING_SAVED);
  await expect.poll(() => voteRows(feedbackId).filter((v) => v.cid === cid)).toEqual([{ option: "Inspired me:5", cid }]);
  expect(voteRows(feedbackId)).toContainEqual({ option: "Inspired me:4", cid: someoneElse });
  expect(await numbersShown()).toEqual([]);

  // Reloaded, the page shows this reader's own ratings and vote.
  await page.reload();
  await expect(five).toHaveAttribute("aria-pressed", "true");
  await expect(four).toHaveAttribute("aria-pressed", "false");
  await expect(no).toHaveAttribute("aria-pressed", "true");
  await expect(yes).toHaveAttribute("aria-pressed", "false");
  await expect(feedback.getByRole("group", { name: "Prayed" }).getByRole("button", { pressed: true })).toHaveCount(0);
});

test("a vote for a poll or option the site did not define is refused", async ({ request, ownPost }) => {
  const cid = otherClientId();
  const unknownPoll = await request.post("/api/polls.php", {
    headers: { "X-Client-Id": cid },
    data: { id: `blog-${ownPost.slug}-made-up`, option: "Yes", question: "Mine?", initialOptions: "Yes,No" },
  });
  expect(unknownPoll.status()).toBe(404);
  const unknownOption = await request.post("/api/polls.php", {
    headers: { "X-Client-Id": cid },
    data: { id: `blog-${ownPost.slug}-poll`, option: "Maybe" },
  });
  expect(unknownOption.status()).toBe(400);
  expect(voteRows(`blog-${ownPost.slug}-poll`)).toEqual([]);
  expect(voteRows(`blog-${ownPost.slug}-made-up`)).toEqual([]);
});
