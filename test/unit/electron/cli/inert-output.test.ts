import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../../../electron/cli/command';
import { inertIO, inertText } from '../../../../electron/cli/inert-output';
import { PassThrough } from 'node:stream';

describe('inertText', () => {
  it('leaves newlines, tabs and printable text (emoji, CJK, Arabic) as they are', () => {
    const text = 'line one\n\tline two — ✓ 日本語 مرحبا 🌳';
    expect(inertText(text)).toBe(text);
  });

  it('shows C0 controls as Control Pictures and DEL, C1 and bidi controls as \\u escapes', () => {
    expect(inertText('\x1b]52;c;eA==\x07')).toBe('␛]52;c;eA==␇');
    expect(inertText('a\rb\bc\0')).toBe('a␍b␈c␀');
    expect(inertText('\u009b2J\u0085\x7f')).toBe('\\u009b2J\\u0085\\u007f');
    expect(inertText('x\u202Ey\u2066z\u2069\u200F\u061C')).toBe('x\\u202ey\\u2066z\\u2069\\u200f\\u061c');
  });

  it('keeps JSON valid and decoding to the same string when applied to JSON.stringify output', () => {
    const value = { text: 'a\u0085b\u202Ec\x1bd\x7f\\' };
    expect(JSON.parse(inertText(JSON.stringify(value)))).toEqual(value);
  });
});

describe('inertIO', () => {
  function capture(interactive: boolean, stdoutIsTerminal: boolean): { io: CliIO; out: unknown[]; err: string[] } {
    const out: unknown[] = [];
    const err: string[] = [];
    const io: CliIO = { stdout: (o) => void out.push(o), stderr: (t) => void err.push(t), stdin: new PassThrough(), cwd: '/', env: {}, interactive, stdoutIsTerminal };
    return { io: inertIO(io), out, err };
  }

  it('passes bytes through into a pipe and escapes them on a terminal', () => {
    const bytes = Buffer.from('\x1b[2Jfile\n');
    const piped = capture(false, false);
    piped.io.stdout(bytes);
    expect(piped.out[0]).toBe(bytes);
    const terminal = capture(true, true);
    terminal.io.stdout(bytes);
    expect(terminal.out[0]).toBe('␛[2Jfile\n');
  });

  it('keeps Arbor’s own progress prefix on an interactive stderr and escapes the text after it', () => {
    const terminal = capture(true, true);
    terminal.io.stderr('\r\x1b[KImporting \x1b]0;x\x07.jsonl');
    expect(terminal.err[0]).toBe('\r\x1b[KImporting ␛]0;x␇.jsonl');
    const piped = capture(false, false);
    piped.io.stderr('\r\x1b[Kx');
    expect(piped.err[0]).toBe('␍␛[Kx');
  });
});
