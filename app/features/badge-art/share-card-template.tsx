import { DISPLAY, SANS } from "./fonts.server";
import { inkOn, shade } from "./colour";
import { LogoMark } from "./parts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export type ShareCardInput = {
  /** What the badge is ('Team Lead Founders', 'Partner supporter'). */
  title: string;
  /** Who holds it (a supporter: their first name). */
  holder: string;
  /** A short line under the holder ('Issued 12 March 2025'). */
  line: string;
  /** The verify page's address, shown for people who see the card without a link. */
  verifyText: string;
  colour: string;
  /** The badge's square picture as a data: URI, or null to draw a medal in the colour. */
  picture: string | null;
  verdict: "Verified" | "Revoked";
};

/** The 1200x630 picture link previews want (LinkedIn, WhatsApp): the badge left, the words right. */
export function ShareCardTemplate(c: ShareCardInput & { issuer: string }) {
  const deep = shade(c.colour, 0.5);
  const ink = inkOn(deep, "#0b2740");
  return (
    <div style={{ display: "flex", width: CARD_WIDTH, height: CARD_HEIGHT, background: deep, color: ink, fontFamily: SANS, padding: 50, boxSizing: "border-box", alignItems: "center" }}>
      {c.picture ? (
        <img src={c.picture} width={500} height={500} alt="" style={{ width: 500, height: 500, borderRadius: 36 }} />
      ) : (
        <div style={{ display: "flex", width: 500, height: 500, borderRadius: 250, background: c.colour, alignItems: "center", justifyContent: "center", border: "16px solid rgba(255,255,255,0.6)" }}>
          <LogoMark size={220} />
        </div>
      )}
      <div style={{ display: "flex", flexDirection: "column", marginLeft: 56, flex: 1, minWidth: 0 }}>
        <div style={{ display: "flex", fontSize: 26, fontWeight: 700, opacity: 0.85 }}>{c.issuer}</div>
        <div style={{ display: "flex", fontFamily: DISPLAY, fontSize: 58, fontWeight: 800, lineHeight: 1.1, marginTop: 18 }}>{c.title}</div>
        <div style={{ display: "flex", fontSize: 36, fontWeight: 700, marginTop: 24 }}>{c.holder}</div>
        <div style={{ display: "flex", fontSize: 26, marginTop: 10, opacity: 0.9 }}>{c.line}</div>
        <div
          style={{
            display: "flex",
            alignSelf: "flex-start",
            marginTop: 34,
            padding: "10px 22px",
            borderRadius: 999,
            background: c.verdict === "Verified" ? "#e5f4ea" : "#fbe9e7",
            color: c.verdict === "Verified" ? "#14532d" : "#a3261b",
            fontSize: 26,
            fontWeight: 800,
          }}
        >
          {c.verdict === "Verified" ? "Verified badge" : "Revoked"}
        </div>
        <div style={{ display: "flex", fontSize: 22, marginTop: 22, opacity: 0.85 }}>{c.verifyText}</div>
      </div>
    </div>
  );
}
