import { site } from "~/lib/core/site";
import { alpha, inkOn, shade } from "./colour";
import { DISPLAY } from "./fonts.server";
import { Canvas, LogoMark, Tick } from "./parts";
import { fitText, type MeasureEm } from "./text";

export type TeamBadgeInput = {
  id: string;
  title: string;
  subtitle: string;
  ownerName: string;
  issuedAt: string;
  category: string;
  earned: boolean;
};

const CATEGORY: Record<string, { label: string; primary: string; secondary: string; accent: string }> = {
  dev: { label: "Development", primary: "#1f5f99", secondary: "#e2eefa", accent: "#f5b85a" },
  evangelism: { label: "Evangelism", primary: "#9a3b1c", secondary: "#fbe9df", accent: "#f5b85a" },
  media: { label: "Media", primary: "#6b2d5c", secondary: "#f4e6f0", accent: "#f5b85a" },
  community: { label: "Community", primary: "#2e7d4f", secondary: "#e1f3e7", accent: "#f5b85a" },
};
const OTHER = { label: "Team", primary: "#123b5d", secondary: "#e3ecf4", accent: "#f5b85a" };

export function categoryStyle(category: string) {
  const known = CATEGORY[category.toLowerCase()];
  return known ?? { ...OTHER, label: category ? category.slice(0, 24) : OTHER.label };
}

/** A team badge: a medallion in the category's colour, the title, the holder and the issue. */
export function TeamBadgeTemplate(b: TeamBadgeInput & { issuedText: string; measure: MeasureEm }) {
  const c = categoryStyle(b.category);
  const ink = shade(c.primary, 0.55);
  const onPrimary = inkOn(c.primary, ink);
  const fit = fitText(b.title, 820, [
    { maxLines: 2, max: 78, min: 46 },
    { maxLines: 3, max: 44, min: 36 },
  ], b.measure);
  const medal = 300;

  return (
    <Canvas
      style={{
        padding: 44,
        backgroundColor: c.primary,
        backgroundImage: `linear-gradient(155deg, ${shade(c.primary, -0.1)} 0%, ${c.primary} 50%, ${shade(c.primary, 0.4)} 100%)`,
      }}
    >
      <div
        style={{
          display: "flex",
          flexDirection: "column",
          alignItems: "center",
          flexGrow: 1,
          borderRadius: 44,
          background: c.secondary,
          color: ink,
          padding: "40px 56px 40px",
          position: "relative",
        }}
      >
        <div style={{ display: "flex", width: "100%", alignItems: "center", justifyContent: "space-between" }}>
          <div style={{ display: "flex", alignItems: "center", gap: 14 }}>
            <LogoMark size={52} />
            <div style={{ display: "flex", fontSize: 26, fontWeight: 800 }}>{site.name}</div>
          </div>
          <div
            style={{
              display: "flex",
              padding: "8px 20px",
              borderRadius: 999,
              background: c.primary,
              color: onPrimary,
              fontSize: 22,
              fontWeight: 800,
              letterSpacing: "0.08em",
              textTransform: "uppercase",
            }}
          >
            {`${c.label} team`}
          </div>
        </div>

        <div
          style={{
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            marginTop: 36,
            width: medal,
            height: medal,
            borderRadius: medal,
            backgroundImage: `radial-gradient(circle, ${c.accent} 0%, ${shade(c.accent, 0.15)} 100%)`,
            opacity: b.earned ? 1 : 0.5,
          }}
        >
          <div
            style={{
              display: "flex",
              alignItems: "center",
              justifyContent: "center",
              width: medal - 44,
              height: medal - 44,
              borderRadius: medal,
              background: c.primary,
              border: `6px solid ${alpha("#ffffff", 0.9)}`,
            }}
          >
            <LogoMark size={150} />
          </div>
        </div>

        <div
          style={{
            display: "flex",
            flexDirection: "column",
            alignItems: "center",
            justifyContent: "center",
            flexGrow: 1,
            width: "100%",
          }}
        >
          <div
            style={{
              display: "block",
              width: 820,
              textAlign: "center",
              fontFamily: DISPLAY,
              fontWeight: 700,
              fontSize: fit.fontSize,
              lineHeight: 1.08,
              overflowWrap: "anywhere",
              lineClamp: fit.maxLines,
            }}
          >
            {b.title}
          </div>
          <div
            style={{
              display: "block",
              width: 820,
              marginTop: 14,
              textAlign: "center",
              fontSize: 30,
              lineHeight: 1.3,
              color: alpha(ink, 0.85),
              lineClamp: 2,
              textWrap: "pretty",
            }}
          >
            {b.subtitle}
          </div>
          <div style={{ display: "flex", alignItems: "center", gap: 12, marginTop: 26, fontSize: 30, fontWeight: 600 }}>
            {b.earned ? <Tick size={34} color="#ffffff" background={c.primary} /> : null}
            <div style={{ display: "block", maxWidth: 760, lineClamp: 1, textOverflow: "ellipsis" }}>
              {b.earned ? `Awarded to ${b.ownerName}` : `In progress: ${b.ownerName}`}
            </div>
          </div>
        </div>

        <div
          style={{
            display: "flex",
            width: "100%",
            alignItems: "center",
            justifyContent: "space-between",
            padding: "20px 28px",
            borderRadius: 26,
            background: c.primary,
            color: onPrimary,
            fontSize: 24,
            fontWeight: 600,
          }}
        >
          <div style={{ display: "flex" }}>{b.earned ? `Issued ${b.issuedText}` : "Not yet earned"}</div>
          <div style={{ display: "flex", fontWeight: 800, letterSpacing: "0.06em" }}>{`ID ${b.id}`}</div>
        </div>
      </div>
    </Canvas>
  );
}
