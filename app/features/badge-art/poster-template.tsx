import { site } from "~/lib/core/site";
import type { TemplateInput } from "./badge-template";
import { alpha, inkOn, shade } from "./colour";
import { DISPLAY } from "./fonts.server";
import { Arrow, Avatar, Canvas, LogoMark } from "./parts";
import { fitText } from "./text";

const NAME_WIDTH = 560;

/** The 'Will Be Attending' poster: the supporter, the evening, and a QR code to the share URL. */
export function PosterTemplate({
  tier,
  name,
  initials,
  portrait,
  measure,
  event,
  qr,
}: TemplateInput & { qr: { src: string; size: number } }) {
  const t = tier.theme;
  const onPrimary = inkOn(t.primary, t.text);
  const onAccent = inkOn(t.accent, t.text);
  const fit = fitText(name, NAME_WIDTH, [
    { maxLines: 2, max: 76, min: 50 },
    { maxLines: 3, max: 48, min: 40 },
    { maxLines: 4, max: 38, min: 32 },
  ], measure);
  const deep = shade(t.primary, 0.45);
  // A very long share URL grows the QR code (qr.server.ts); the headline gives up the room.
  const headline = qr.size > 200 ? 0.72 : 1;

  return (
    <Canvas
      style={{
        padding: "56px 64px 60px",
        color: onPrimary,
        backgroundColor: t.primary,
        backgroundImage: `linear-gradient(165deg, ${t.primary} 0%, ${shade(t.primary, 0.18)} 55%, ${deep} 100%)`,
      }}
    >
      {/* Lamp light, top right. */}
      <div
        style={{
          position: "absolute",
          top: -300,
          right: -260,
          width: 820,
          height: 820,
          borderRadius: 820,
          backgroundImage: `radial-gradient(circle, ${alpha(t.accent, 0.42)} 0%, ${alpha(t.accent, 0.12)} 45%, ${alpha(t.accent, 0)} 70%)`,
        }}
      />

      <div style={{ display: "flex", alignItems: "center", justifyContent: "space-between" }}>
        <div style={{ display: "flex", alignItems: "center", gap: 16 }}>
          <div style={{ display: "flex", borderRadius: 64, border: `3px solid ${alpha("#ffffff", 0.85)}` }}>
            <LogoMark size={58} />
          </div>
          <div style={{ display: "flex", fontSize: 28, fontWeight: 800 }}>{site.name}</div>
        </div>
        <div
          style={{
            display: "flex",
            padding: "10px 22px",
            borderRadius: 999,
            background: t.accent,
            color: onAccent,
            fontSize: 24,
            fontWeight: 800,
          }}
        >
          {event.dateText}
        </div>
      </div>

      <div style={{ display: "flex", alignItems: "center", gap: 52, marginTop: 44 }}>
        <Avatar
          size={300}
          portrait={portrait}
          initials={initials}
          ring={t.accent}
          gap="#ffffff"
          fill={t.secondary}
          ink={t.text}
        />
        <div style={{ display: "flex", flexDirection: "column", width: NAME_WIDTH }}>
          <div
            style={{
              display: "flex",
              fontSize: 24,
              fontWeight: 800,
              letterSpacing: "0.16em",
              textTransform: "uppercase",
              opacity: 0.85,
            }}
          >
            Proud supporter
          </div>
          <div
            style={{
              display: "block",
              marginTop: 10,
              fontFamily: DISPLAY,
              fontWeight: 700,
              fontSize: fit.fontSize,
              lineHeight: 1.08,
              overflowWrap: "anywhere",
              lineClamp: fit.maxLines,
            }}
          >
            {name}
          </div>
          <div style={{ display: "flex", alignItems: "center", gap: 14, marginTop: 20 }}>
            <div
              style={{
                display: "flex",
                padding: "8px 20px",
                borderRadius: 999,
                background: t.secondary,
                color: t.text,
                fontSize: 26,
                fontWeight: 800,
              }}
            >
              {tier.name}
            </div>
            <div style={{ display: "flex", fontSize: 24, fontWeight: 600, opacity: 0.9 }}>{tier.subtitle}</div>
          </div>
        </div>
      </div>

      <div
        style={{
          display: "flex",
          flexDirection: "column",
          flexGrow: 1,
          justifyContent: "center",
          fontFamily: DISPLAY,
          fontWeight: 700,
          lineHeight: 0.98,
          letterSpacing: "-0.02em",
        }}
      >
        <div style={{ display: "flex", fontSize: Math.round(118 * headline) }}>Will Be</div>
        <div style={{ display: "flex", fontSize: Math.round(150 * headline) }}>Attending</div>
      </div>

      <div
        style={{
          display: "flex",
          alignItems: "center",
          gap: 28,
          padding: 20,
          paddingLeft: 36,
          borderRadius: 32,
          background: "#ffffff",
          color: t.text,
        }}
      >
        <div style={{ display: "flex", flexDirection: "column", flexGrow: 1, flexShrink: 1 }}>
          <div style={{ display: "flex", fontFamily: DISPLAY, fontWeight: 700, fontSize: 36, lineHeight: 1.12 }}>
            {event.title}
          </div>
          <div style={{ display: "flex", marginTop: 8, fontSize: 26, fontWeight: 600, color: alpha(t.text, 0.8) }}>
            {`${event.dateText} · ${event.venue} · ${tier.price}`}
          </div>
          <div
            style={{
              display: "flex",
              alignItems: "center",
              alignSelf: "flex-start",
              gap: 10,
              marginTop: 18,
              padding: "10px 20px",
              borderRadius: 999,
              background: t.primary,
              color: onPrimary,
              fontSize: 25,
              fontWeight: 800,
            }}
          >
            Scan to support the evening
            <Arrow size={26} color={onPrimary} />
          </div>
        </div>
        <div style={{ display: "flex", flexShrink: 0, padding: 6, borderRadius: 18, border: `3px solid ${t.secondary}` }}>
          <img src={qr.src} width={qr.size} height={qr.size} alt="" style={{ width: qr.size, height: qr.size }} />
        </div>
      </div>
    </Canvas>
  );
}
