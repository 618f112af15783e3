import { describe, expect, it } from 'vitest';
import { toWinAnsi } from '../../../../server/findings/export/win-ansi.ts';

describe('toWinAnsi', () => {
  it('keeps ASCII, Latin-1 and the typographic marks WinAnsi adds', () => {
    const text = 'Plain ASCII ~ Ünïcödé ß ø ½ © € … “quotes” ‘single’ – — • ™ Œ Ÿ';
    expect(toWinAnsi(text)).toBe(text);
  });

  it('replaces each character outside WinAnsi with one question mark, emoji included', () => {
    expect(toWinAnsi('漏洞 🚀 Ж')).toBe('?? ? ?');
  });

  it('keeps the base letter of accented letters WinAnsi lacks', () => {
    expect(toWinAnsi('Łódź, Dvořák, Ősz, ﬁle, ＡＢＣ')).toBe('Lódz, Dvorák, Osz, file, ABC');
  });

  it('spells common symbols in plain characters', () => {
    expect(toWinAnsi('a → b, x ≤ y, 5 − 3, ✓ done')).toBe('a -> b, x <= y, 5 - 3, v done');
  });

  it('drops control and zero-width characters, unifies line breaks and expands tabs', () => {
    expect(toWinAnsi('a\u0000b\u200Bc\u0085d\r\ne\rf\tg')).toBe('abcd\ne\nf  g');
  });

  it('composes letters written as base letter plus combining mark', () => {
    expect(toWinAnsi('Cafe\u0301')).toBe('Café');
  });

  it('replaces a lone surrogate instead of failing', () => {
    expect(toWinAnsi('a\uD800b')).toBe('a?b');
  });
});
