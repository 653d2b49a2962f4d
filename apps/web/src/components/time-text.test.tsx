// The one time display (issue 22): every time labelled with its zone, the other zone's format on hover.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TimeText } from './time-text';

const AT = '2026-11-20T00:49:19.000Z';

describe('TimeText', () => {
  it('shows UTC in the spec’s DD/MM/YYYY, labelled, and the US Eastern time on hover', () => {
    render(<TimeText value={AT} />);
    const time = screen.getByText('20/11/2026 00:49:19 UTC');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('dateTime')).toBe(AT);
    expect(time.getAttribute('title')).toBe('11/19/2026 19:49:19 EST');
  });

  it('shows Eastern time labelled EST or EDT as the date requires, and UTC on hover', () => {
    render(
      <>
        <TimeText value={AT} format="eastern" />
        <TimeText value="2026-07-04T16:05:09.000Z" format="eastern" />
      </>,
    );
    expect(screen.getByText('19/11/2026 19:49:19 EST').getAttribute('title')).toBe('20/11/2026 00:49:19 UTC');
    expect(screen.getByText('04/07/2026 12:05:09 EDT').getAttribute('title')).toBe('04/07/2026 16:05:09 UTC');
  });

  it('shows the US format of remarks labelled, and UTC on hover', () => {
    render(<TimeText value={AT} format="us-eastern" />);
    expect(screen.getByText('11/19/2026 19:49:19 EST').getAttribute('title')).toBe('20/11/2026 00:49:19 UTC');
  });

  it('shows nothing for a missing or unreadable time', () => {
    const { container } = render(
      <>
        <TimeText value={undefined} />
        <TimeText value="not a time" />
      </>,
    );
    expect(container.textContent).toBe('');
  });
});
