import { site } from "~/lib/core/site";
import { alpha, inkOn, shade } from "./colour";
import { DISPLAY } from "./fonts.server";
import { Avatar, Canvas, LogoMark, Tick } from "./parts";
import { fitText, type MeasureEm } from "./text";

/** A tier as the badge and poster print it: its words, its price as printed, its colours. */
export type KitTier = {
  name: string;
  subtitle: string;
  impact: string;
  /** 'KES 1,300'. */
  price: string;
  theme: { primary: string; secondary: string; accent: string; text: string };
};

export type TemplateInput = {
  tier: KitTier;
  name: string;
  initials: string;
  /** A data: URI of the square portrait, already small. */
  portrait: string | null;
  reference?: string;
  /** The evening, from the event record, cut to what the card has room for. */
  event: { title: string; dateText: string; venue: string };
  /** The display font's measured widths, for fitting the name. */
  measure: MeasureEm;
};

const NAME_WIDTH = 820;

/** The supporter badge: a card in the tier's colours, portrait, name, tier, amount and impact. */
export function BadgeTemplate({ tier, name, initials, portrait, reference, event, measure }: TemplateInput) {
  const t = tier.theme;
  const onPrimary = inkOn(t.primary, t.text);
  const onAccent = inkOn(t.accent, t.text);
  const fit = fitText(name, NAME_WIDTH, [
    { maxLines: 2, max: 84, min: 48 },
    { maxLines: 3, max: 46, min: 36 },
  ], measure);

  return (
    <Canvas
      style={{
        padding: 44,
        backgroundColor: t.primary,
        backgroundImage: `linear-gradient(155deg, ${shade(t.primary, -0.08)} 0%, ${t.primary} 45%, ${shade(t.primary, 0.35)} 100%)`,
      }}
    >
      <div
        style={{
          display: "flex",
          flexDirection: "column",
          alignItems: "center",
          flexGrow: 1,
          borderRadius: 44,
          // Lamp light behind the portrait; a background, not a clipped layer, because clipping
          // to rounded corners triples resvg's time.
          backgroundColor: t.secondary,
          backgroundImage: `radial-gradient(circle at 50% 22%, ${alpha(t.accent, 0.4)} 0%, ${alpha(t.accent, 0)} 34%)`,
          color: t.text,
          padding: "40px 56px 36px",
          position: "relative",
        }}
      >
        <div style={{ display: "flex", width: "100%", alignItems: "center", justifyContent: "space-between" }}>
          <div style={{ display: "flex", alignItems: "center", gap: 14 }}>
            <LogoMark size={52} />
            <div style={{ display: "flex", fontSize: 26, fontWeight: 800, letterSpacing: "-0.01em" }}>{site.name}</div>
          </div>
          <div
            style={{
              display: "flex",
              alignItems: "center",
              gap: 10,
              padding: "8px 18px 8px 10px",
              borderRadius: 999,
              background: t.primary,
              color: onPrimary,
              fontSize: 22,
              fontWeight: 800,
              letterSpacing: "0.06em",
              textTransform: "uppercase",
            }}
          >
            <Tick size={30} color={t.primary} background={onPrimary} />
            QR Badge
          </div>
        </div>

        <div style={{ display: "flex", marginTop: 30 }}>
          <Avatar
            size={272}
            portrait={portrait}
            initials={initials}
            ring={t.accent}
            gap="#ffffff"
            fill={t.primary}
            ink={onPrimary}
          />
        </div>

        <div
          style={{
            display: "flex",
            flexGrow: 1,
            flexDirection: "column",
            alignItems: "center",
            justifyContent: "center",
            width: "100%",
          }}
        >
          <div
            style={{
              display: "block",
              width: NAME_WIDTH,
              textAlign: "center",
              fontFamily: DISPLAY,
              fontWeight: 700,
              fontSize: fit.fontSize,
              lineHeight: 1.08,
              letterSpacing: "-0.01em",
              overflowWrap: "anywhere",
              lineClamp: fit.maxLines,
            }}
          >
            {name}
          </div>

          <div style={{ display: "flex", alignItems: "center", gap: 16, marginTop: 20 }}>
            <div
              style={{
                display: "flex",
                padding: "8px 22px",
                borderRadius: 999,
                background: t.primary,
                color: onPrimary,
                fontSize: 28,
                fontWeight: 800,
              }}
            >
              {tier.name}
            </div>
            <div style={{ display: "flex", fontSize: 26, fontWeight: 600, color: alpha(t.text, 0.78) }}>
              {tier.subtitle}
            </div>
          </div>

          <div style={{ display: "flex", alignItems: "baseline", gap: 14, marginTop: 16 }}>
            <div style={{ display: "flex", fontSize: 54, fontWeight: 800, color: t.primary, letterSpacing: "-0.02em" }}>
              {tier.price}
            </div>
            <div style={{ display: "flex", fontSize: 24, fontWeight: 600, color: alpha(t.text, 0.7) }}>sponsorship</div>
          </div>

          <div
            style={{
              display: "block",
              width: 820,
              marginTop: 12,
              textAlign: "center",
              fontSize: 27,
              lineHeight: 1.35,
              color: alpha(t.text, 0.85),
              lineClamp: 3,
              textWrap: "pretty",
            }}
          >
            {tier.impact}
          </div>
        </div>

        <div
          style={{
            display: "flex",
            width: "100%",
            alignItems: "center",
            justifyContent: "space-between",
            gap: 24,
            padding: "20px 28px",
            borderRadius: 26,
            background: t.primary,
            color: onPrimary,
          }}
        >
          <div style={{ display: "flex", flexDirection: "column", gap: 2 }}>
            <div style={{ display: "flex", fontFamily: DISPLAY, fontWeight: 700, fontSize: 30, lineHeight: 1.15 }}>
              {event.title}
            </div>
            <div style={{ display: "flex", fontSize: 23, fontWeight: 600, opacity: 0.9 }}>
              {`${event.dateText} · ${event.venue}`}
            </div>
          </div>
          <div
            style={{
              display: "flex",
              flexShrink: 0,
              padding: "8px 16px",
              borderRadius: 14,
              background: t.accent,
              color: onAccent,
              fontSize: 22,
              fontWeight: 800,
              letterSpacing: "0.04em",
            }}
          >
            {reference ? `#${reference}` : "SUPPORTER"}
          </div>
        </div>
      </div>
    </Canvas>
  );
}
