// Addresses break after their separators only: each separator is followed by a break opportunity, nothing else is.
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SoftBreaks } from './soft-breaks';

const breaksIn = (text: string) => render(<SoftBreaks text={text} />).container.innerHTML;

describe('SoftBreaks', () => {
  it('lets an e-mail address break after its @ and dots only, keeping its text whole', () => {
    const { container } = render(<SoftBreaks text="lucia.gonzalez07@gmail.com" />);
    expect(container.textContent).toBe('lucia.gonzalez07@gmail.com');
    expect(container.innerHTML).toBe('lucia.<wbr>gonzalez07@<wbr>gmail.<wbr>com');
  });

  it('lets an IPv6 address break after its colons, and leaves a word without separators alone', () => {
    expect(breaksIn('2001:db8::1')).toBe('2001:<wbr>db8:<wbr>:<wbr>1');
    expect(breaksIn('Computer')).toBe('Computer');
  });
});
