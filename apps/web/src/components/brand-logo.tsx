// The service's mark: a maple leaf on a red square (used when a landing site has no logo of its own).
export function BrandLogo({ size = 40 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 64 64"
      role="img"
      aria-label="Canada eTA logo"
      // Never squeezed by a crowded bar (the console header on a phone).
      style={{ flexShrink: 0 }}
    >
      <rect width="64" height="64" rx="10" fill="#d52b1e" />
      <path
        fill="#fff"
        d="M32 8l-4 8-5-2 2 12-7-7-2 4-6-1 3 8-3 2 12 9-2 5 11-2v12h2V44l11 2-2-5 12-9-3-2 3-8-6 1-2-4-7 7 2-12-5 2z"
      />
    </svg>
  );
}
