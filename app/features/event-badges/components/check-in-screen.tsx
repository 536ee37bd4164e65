import { useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { useHydrated } from "~/components/ui/form-parts";
import type { Reply } from "~/lib/core/forms";
import { formatDateInWords, formatNairobiClock } from "~/lib/core/nairobi-time";
import type { CheckInOutcome } from "../check-in";
import { refusalText, type DoorEntry } from "../check-in";
import { CHECK_IN_PATH, ticketFromScan } from "../ticket";

type Data = {
  counts: { arrived: number; approved: number };
  q: string;
  results: DoorEntry[];
  opened: { ticket: string; entry: DoorEntry | null; problem: string | null } | null;
};

const portraitSrc = (id: string) => `${CHECK_IN_PATH}/portrait/${id}.webp`;

function Person({ entry }: { entry: DoorEntry }) {
  return (
    <div className="door-person">
      {entry.hasPortrait ? <img src={portraitSrc(entry.id)} alt={`Portrait of ${entry.name}`} width={96} height={96} className="door-portrait" /> : null}
      <div>
        <p className="door-name">{entry.name}</p>
        <p>
          {entry.tierName} · {entry.id}
        </p>
      </div>
    </div>
  );
}

/** A revoked badge or a rejected order: do not let in, in red, with the reason. */
function Refused({ entry }: { entry: DoorEntry }) {
  const r = entry.refused!;
  return (
    <div className="door-result door-result-refused" role="alert">
      <p className="door-verdict">
        <span aria-hidden="true">✕ </span>Do not let in
      </p>
      <p className="door-why">
        {r.kind === "revoked" ? "Badge revoked" : "Order rejected"}
        {r.at ? ` on ${formatDateInWords(r.at)}` : ""}
      </p>
      <p className="door-reason">Reason: {r.reason.trim() || "no reason was written down."}</p>
      <Person entry={entry} />
      <p className="small">The supporter can reply to their order email; staff can look at the order under Badge orders.</p>
    </div>
  );
}

/**
 * The result of a check-in, the way the door needs it: a large verdict in colour and words
 * (checked in, already, or do not let in with the reason), who, which tier, and the badge to
 * hand over on a first check-in only.
 */
function Outcome({ reply }: { reply: Reply<CheckInOutcome> }) {
  const r = reply.result;
  if (!r) {
    return (
      <div className="door-result door-result-refused" role="alert">
        <p className="door-verdict">
          <span aria-hidden="true">✕ </span>Not checked in
        </p>
        <p>{reply.message}</p>
      </div>
    );
  }
  const { entry } = r;
  if (entry.refused) return <Refused entry={entry} />;
  return (
    <div className={r.already ? "door-result door-result-already" : "door-result door-result-ok"} role={r.already ? "alert" : "status"}>
      <p className="door-verdict">
        <span aria-hidden="true">{r.already ? "⚠ " : "✓ "}</span>
        {r.already ? `Already checked in at ${formatNairobiClock(r.checkedInAt ?? "")}` : "Checked in"}
      </p>
      <Person entry={entry} />
      {r.already ? (
        <p className="door-hard-copy">This ticket was used before: check the person's name before letting them in.</p>
      ) : (
        <p className="door-hard-copy">{entry.hardCopy ? "Hand over a hard-copy badge" : "No hard-copy badge"}</p>
      )}
    </div>
  );
}

/**
 * With JavaScript: the phone's camera, read live with jsQR (loaded only when staff start it),
 * and a ticket photo read in the browser instead of uploaded. Whatever is read is sent as the
 * plain 'scan' form, so the answer is the same as without JavaScript.
 */
function Scanner({ onTicket }: { onTicket: (ticket: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<"off" | "starting" | "on" | "denied">("off");
  const stop = useRef<() => void>(() => {});

  useEffect(() => () => stop.current(), []);

  async function start() {
    setState("starting");
    try {
      const [{ default: jsQR }, stream] = await Promise.all([
        import("jsqr"),
        navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false }),
      ]);
      const el = video.current!;
      el.srcObject = stream;
      await el.play();
      setState("on");
      const canvas = document.createElement("canvas");
      const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
      let last = "";
      const timer = window.setInterval(() => {
        if (el.readyState < 2 || !el.videoWidth) return;
        const scale = Math.min(1, 800 / Math.max(el.videoWidth, el.videoHeight));
        canvas.width = Math.round(el.videoWidth * scale);
        canvas.height = Math.round(el.videoHeight * scale);
        ctx.drawImage(el, 0, 0, canvas.width, canvas.height);
        const code = jsQR(ctx.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height);
        // The same code held up for several frames is sent once.
        if (code?.data && code.data !== last) {
          last = code.data;
          onTicket(ticketFromScan(code.data));
        }
      }, 250);
      stop.current = () => {
        window.clearInterval(timer);
        for (const t of stream.getTracks()) t.stop();
        setState("off");
      };
    } catch {
      setState("denied");
    }
  }

  return (
    <div className="door-camera">
      {/* biome-ignore lint/a11y/useMediaCaption: a live camera view has no audio to caption */}
      <video ref={video} muted playsInline hidden={state !== "on"} className="door-video" aria-label="Camera view" />
      {state === "on" ? (
        <button type="button" className="button-ghost" onClick={() => stop.current()}>
          Stop the camera
        </button>
      ) : (
        <button type="button" className="button" onClick={start} disabled={state === "starting"}>
          {state === "starting" ? "Starting the camera…" : "Scan with the camera"}
        </button>
      )}
      {state === "denied" ? (
        <p className="small" role="alert">
          The camera could not be used here. Take a photo of the code below, or type the reference.
        </p>
      ) : null}
    </div>
  );
}

async function readPhoto(file: File): Promise<string | null> {
  const { default: jsQR } = await import("jsqr");
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, 1200 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  const ctx = canvas.getContext("2d")!;
  ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return jsQR(ctx.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height)?.data ?? null;
}

export function CheckInScreen({ data: d, reply }: { data: Data; reply: Reply<CheckInOutcome> | undefined }) {
  const scan = useFetcher<Reply<CheckInOutcome>>({ key: "door-scan" });
  const hydrated = useHydrated();
  // The newest answer on the page: a scan sent by script, or a form the browser posted.
  const [latest, setLatest] = useState(reply);
  useEffect(() => setLatest(reply), [reply]);
  useEffect(() => {
    if (scan.data) setLatest(scan.data);
  }, [scan.data]);
  const counts = latest?.result?.counts ?? d.counts;
  // Each new answer is brought to the top of the screen and focused: staff look there, and a
  // screen reader reads it. (Without JavaScript the page is drawn with the answer at the top.)
  const answer = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const box = answer.current;
    if (!latest || !box) return;
    const r = box.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) {
      // With the counts above it when both fit, else the answer at the top.
      const countsTop = top.current?.getBoundingClientRect().top ?? r.top;
      window.scrollBy({ top: (r.bottom - countsTop <= window.innerHeight ? countsTop : r.top) - 8 });
    }
    box.focus({ preventScroll: true });
  }, [latest]);
  const sendTicket = (ticket: string) => scan.submit({ intent: "scan", token: ticket }, { method: "post", action: CHECK_IN_PATH });

  async function onPhoto(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.currentTarget.files?.[0];
    const form = e.currentTarget.form!;
    if (!file) return;
    // Read here when possible (nothing uploaded); the server reads it otherwise.
    const text = await readPhoto(file).catch(() => null);
    if (text) {
      sendTicket(ticketFromScan(text));
      form.reset();
    } else {
      scan.submit(form, { method: "post", action: CHECK_IN_PATH, encType: "multipart/form-data" });
    }
  }

  return (
    <div className="door-screen">
      <p className="door-counts" aria-live="polite" ref={top}>
        <strong>{counts.arrived}</strong> arrived of <strong>{counts.approved}</strong> approved
      </p>

      <div id="door-answer" ref={answer} tabIndex={-1} className="door-answer">
        {latest ? <Outcome reply={latest} /> : null}
      </div>

      {d.opened ? (
        <section className="form-card door-opened" aria-labelledby="opened-title">
          <h2 id="opened-title">Ticket from a QR code</h2>
          {d.opened.entry?.refused ? (
            <Refused entry={d.opened.entry} />
          ) : d.opened.entry ? (
            <>
              <p>
                {d.opened.entry.name} · {d.opened.entry.tierName} · {d.opened.entry.id}
                {d.opened.entry.checkedInAt ? ` · already checked in at ${formatNairobiClock(d.opened.entry.checkedInAt)}` : ""}
              </p>
              <Form method="post" action={CHECK_IN_PATH}>
                <input type="hidden" name="intent" value="scan" />
                <input type="hidden" name="token" value={d.opened.ticket} />
                <button type="submit" className="button">
                  Check in {d.opened.entry.name}
                </button>
              </Form>
            </>
          ) : (
            <p role="alert">{d.opened.problem}</p>
          )}
        </section>
      ) : null}

      {d.q ? (
        <section className="form-card door-found" id="door-found" aria-labelledby="found-title">
          <h2 id="found-title">Found for '{d.q}'</h2>
          {d.results.length === 0 ? (
            <p>No supporter matches '{d.q}'. Try part of the name, or the reference.</p>
          ) : (
            <ul className="door-results" aria-label="Supporters found">
              {d.results.map((p) => (
                <li key={p.id} className={p.refused ? "door-found-refused" : undefined}>
                  <span>
                    <strong>{p.name}</strong> · {p.tierName} · {p.id}
                    {p.hardCopy ? " · hard-copy badge" : ""}
                    {p.checkedInAt ? ` · in at ${formatNairobiClock(p.checkedInAt)}` : ""}
                  </span>
                  {p.refused ? (
                    <span className="door-refused-line">{refusalText(p)}</span>
                  ) : (
                    <Form method="post" action={`${CHECK_IN_PATH}?q=${encodeURIComponent(d.q)}`}>
                      <input type="hidden" name="intent" value="check-in" />
                      <input type="hidden" name="reference" value={p.id} />
                      <button type="submit" className="button-small" aria-label={`Check in ${p.name} (${p.id})`}>
                        Check in
                      </button>
                    </Form>
                  )}
                </li>
              ))}
            </ul>
          )}
          <p className="small">
            <Link to={CHECK_IN_PATH}>Clear the search</Link>
          </p>
        </section>
      ) : null}

      <section className="form-card" aria-labelledby="scan-title">
        <h2 id="scan-title">Scan an entry QR code</h2>
        {hydrated ? <Scanner onTicket={sendTicket} /> : null}
        <Form method="post" action={CHECK_IN_PATH} encType="multipart/form-data" className="door-photo">
          <input type="hidden" name="intent" value="scan-photo" />
          <label htmlFor="door-photo">Or take a photo of the code</label>
          <input id="door-photo" name="photo" type="file" accept="image/*" capture="environment" onChange={hydrated ? onPhoto : undefined} />
          <button type="submit" className="button-ghost">
            Check in from the photo
          </button>
        </Form>
      </section>

      <section className="form-card" aria-labelledby="reference-title">
        <h2 id="reference-title">Type a reference</h2>
        <Form method="post" action={CHECK_IN_PATH} className="door-reference">
          <input type="hidden" name="intent" value="check-in" />
          <label htmlFor="door-reference">Reference</label>
          <input
            id="door-reference"
            name="reference"
            type="text"
            required
            maxLength={20}
            autoCapitalize="characters"
            autoComplete="off"
            autoCorrect="off"
            spellCheck={false}
            placeholder="BO-ABC123"
          />
          <button type="submit" className="button">
            Check in
          </button>
        </Form>
      </section>

      <section className="form-card" aria-labelledby="find-title">
        <h2 id="find-title">Find a supporter</h2>
        <Form method="get" action={CHECK_IN_PATH} className="door-search" role="search">
          <label htmlFor="door-q">Name or reference</label>
          <input id="door-q" name="q" type="search" defaultValue={d.q} maxLength={80} autoComplete="off" />
          <button type="submit" className="button-ghost">
            Find
          </button>
        </Form>
      </section>

      <p>
        <Link to="/admin/badge-table">Printable hard-copy badge list</Link> · <Link to="/admin/event">Event settings</Link>
      </p>
    </div>
  );
}
