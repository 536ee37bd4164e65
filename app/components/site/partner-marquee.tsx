type Partner = { name: string; image: string };

/**
 * A CSS-only logo loop: the list is drawn twice and the track slides by half its width.
 * The copy is hidden from assistive tech; with reduced motion the copy disappears and the
 * logos wrap in place.
 */
export function PartnerMarquee({ partners }: { partners: Partner[] }) {
  const row = (copy: boolean) =>
    partners.map((p) => (
      <li key={(copy ? "copy-" : "") + p.name} aria-hidden={copy || undefined} className={copy ? "marquee-copy" : undefined}>
        <img src={p.image} width="160" height="64" alt={copy ? "" : p.name} loading="lazy" decoding="async" />
      </li>
    ));
  return (
    <div className="marquee">
      <ul className="marquee-track">
        {row(false)}
        {row(true)}
      </ul>
    </div>
  );
}
