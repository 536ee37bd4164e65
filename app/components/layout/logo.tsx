/** The mark: a street lamp whose light forms a cross. Drawn inline so it costs no request. */
export function Logo({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false" className="logo-mark">
      <circle cx="32" cy="32" r="32" fill="#123b5d" />
      <path d="M32 10v8M24 18h16" stroke="#f5b85a" strokeWidth="4" strokeLinecap="round" />
      <path d="M22 24h20l-4 9H26z" fill="#f5b85a" />
      <path d="M32 33v21M25 54h14" stroke="#f5f1ea" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
