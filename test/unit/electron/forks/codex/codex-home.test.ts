/** Where a forked rollout is written, and its id (electron/forks/codex/codex-home.ts). */
import { describe, expect, it } from 'vitest';
import { codexSessionsDir, rolloutPath, uuidV7 } from '../../../../../electron/forks/codex/codex-home';

describe('codex-home', () => {
  it('honours CODEX_HOME, else ~/.codex', () => {
    expect(codexSessionsDir('/home/u', {})).toBe('/home/u/.codex/sessions');
    expect(codexSessionsDir('/home/u', { CODEX_HOME: '/tmp/codex' })).toBe('/tmp/codex/sessions');
    expect(codexSessionsDir('/home/u', { CODEX_HOME: '~/alt' })).toBe('/home/u/alt/sessions');
  });

  it('names the file as Codex does, in local time: sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl', () => {
    const at = new Date(2026, 11, 1, 9, 5, 7);
    expect(rolloutPath('/c/sessions', 'ID', at)).toBe('/c/sessions/2026/12/01/rollout-2026-12-01T09-05-07-ID.jsonl');
  });

  it('makes a UUID v7 whose first 48 bits are the time', () => {
    const at = new Date('2026-12-01T10:00:00.000Z');
    const id = uuidV7(at, (size) => Buffer.alloc(size, 0xff));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at.getTime());
    expect(uuidV7(at)).not.toBe(uuidV7(at));
  });
});
