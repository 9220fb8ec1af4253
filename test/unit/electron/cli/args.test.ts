import { describe, expect, it } from 'vitest';
import { integerOption, parseCommandArgs, parseGlobalOptions } from '../../../../electron/cli/args';
import { UsageError } from '../../../../electron/cli/command';
import { formatDate, markSnippet, oneLine, table, uniquePrefixLength } from '../../../../electron/cli/format';
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../../shared/model';

describe('parseGlobalOptions', () => {
  it('takes --data-dir before or after the command', () => {
    expect(parseGlobalOptions(['--data-dir', '/d', 'ls', '--json'])).toEqual({ dataDir: '/d', help: false, version: false, command: 'ls', args: ['--json'] });
    expect(parseGlobalOptions(['ls', '--data-dir=/e', '--json'])).toMatchObject({ dataDir: '/e', command: 'ls', args: ['--json'] });
  });
  it('leaves --help after a command to the command, and passes everything after --', () => {
    expect(parseGlobalOptions(['show', '--help'])).toMatchObject({ help: false, command: 'show', args: ['--help'] });
    expect(parseGlobalOptions(['-h'])).toMatchObject({ help: true });
    expect(parseGlobalOptions(['--version'])).toMatchObject({ version: true });
    expect(parseGlobalOptions(['search', '--', '--data-dir'])).toMatchObject({ args: ['--', '--data-dir'] });
  });
  it('refuses unknown options before the command and a --data-dir without a folder', () => {
    expect(() => parseGlobalOptions(['--bogus', 'ls'])).toThrow(UsageError);
    expect(() => parseGlobalOptions(['ls', '--data-dir'])).toThrow(UsageError);
    expect(() => parseGlobalOptions(['--data-dir='])).toThrow(UsageError);
  });
});

describe('parseCommandArgs', () => {
  it('parses known options and counts positionals', () => {
    const parsed = parseCommandArgs(['a', '--json', 'b'], { json: { type: 'boolean' } }, { min: 1, max: 2 });
    expect(parsed.values.json).toBe(true);
    expect(parsed.positionals).toEqual(['a', 'b']);
  });
  it('turns unknown options and wrong counts into short usage errors', () => {
    expect(() => parseCommandArgs(['--nope'], {}, { min: 0, max: 0 })).toThrow('unknown option --nope');
    expect(() => parseCommandArgs([], {}, { min: 1, max: 1 })).toThrow(UsageError);
    expect(() => parseCommandArgs(['a', 'b'], {}, { min: 0, max: 1 })).toThrow('unexpected argument "b"');
    expect(() => parseCommandArgs(['--port'], { port: { type: 'string' } }, { min: 0, max: 0 })).toThrow('--port needs a value');
  });
  it('checks whole-number options', () => {
    expect(integerOption('port', '8080', { min: 0, max: 65535 })).toBe(8080);
    expect(integerOption('port', undefined, { min: 0, max: 65535 })).toBeUndefined();
    expect(() => integerOption('port', '-1', { min: 0, max: 65535 })).toThrow(UsageError);
    expect(() => integerOption('port', '70000', { min: 0, max: 65535 })).toThrow(UsageError);
    expect(() => integerOption('port', '1e3', { min: 0, max: 65535 })).toThrow(UsageError);
  });
});

describe('format', () => {
  it('aligns table columns, numbers to the right', () => {
    expect(table(['ID', 'N', 'TITLE'], [['a', '5', 'x'], ['bbb', '120', 'y']], [1])).toBe('ID     N  TITLE\na      5  x\nbbb  120  y\n');
  });
  it('finds the shortest unique id prefix (at least 8)', () => {
    expect(uniquePrefixLength(['abcdefgh1', 'zzzzzzzz'])).toBe(8);
    expect(uniquePrefixLength(['abcdefghij1', 'abcdefghij2'])).toBe(11);
  });
  it('formats dates in UTC and cuts long text to one line', () => {
    expect(formatDate('2026-01-02T03:04:05Z')).toBe('2026-01-02 03:04');
    expect(formatDate(null)).toBe('-');
    expect(oneLine('a\n  b', 10)).toBe('a b');
    expect(oneLine('abcdefghijk', 5)).toBe('abcd…');
    expect(markSnippet(`x ${SNIPPET_OPEN}hit${SNIPPET_CLOSE} y`)).toBe('x «hit» y');
  });
});
