// Text that may break only after its separators: an e-mail address after '@' and its dots, an IP address after its
// dots or colons, instead of anywhere ('lucia.gonzale|z07@gmail.c|om', issue 22). Plain HTML (no MUI), so the
// portal's small bundle can use it too.
import { Fragment } from 'react';

export function SoftBreaks({ text }: { text: string }) {
  // Each part ends with its separator; no lookbehind, which Safari before 16.4 cannot parse.
  const parts = text.match(/[^.:@]+[.:@]?|[.:@]/g) ?? [];
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 ? <wbr /> : null}
    </Fragment>
  ));
}
