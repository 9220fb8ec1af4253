/**
 * The Codex format doctor lists what the importer does not model yet, by the registry the parser reads
 * (modelled.ts); the drift tests check that every listed name has its own handling in the parser and an
 * unlisted one falls through to the opaque case.
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RolloutBuilder, sampleRollout } from '../../../../../electron/demo/codex-rollout';
import { checkRolloutFile, CodexFormatDoctor } from '../../../../../electron/importers/codex/format-doctor';
import { MODELLED } from '../../../../../electron/importers/codex/modelled';
import { ROLLOUT_LINE_TYPES, summarizeLine } from '../../../../../electron/importers/codex/rollout-entry';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-codex-doctor-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const scope = { id: '019e0000-0000-7000-8000-0000000000d0', cwd: '/work/app' };

describe('the Codex format doctor', () => {
  it('finds nothing to report in a rollout of modelled shapes, plain or compressed', async () => {
    for (const name of ['rollout.jsonl', 'rollout.jsonl.zst']) {
      const path = join(dir, name);
      await sampleRollout(scope).plan([{ step: 'one', status: 'pending' }]).webSearch('q').write(path);
      const doctor = new CodexFormatDoctor();
      await checkRolloutFile(doctor, path);
      const report = doctor.report();
      expect(report.unmodelled).toEqual([]);
      expect(report.unreadable.count).toBe(0);
      expect(report.files).toBe(1);
      expect(report.lines).toBe(sampleRollout(scope).plan([{ step: 'one', status: 'pending' }]).webSearch('q').take().length);
    }
  });

  it('lists unmodelled line, response item, event and item types with counts, versions and first line, and the unreadable lines', async () => {
    const path = join(dir, 'rollout.jsonl');
    const builder = new RolloutBuilder(scope).user('go').future().future();
    await builder.write(path);
    const line = (type: string, payload: object) => `${JSON.stringify({ timestamp: '2026-11-30T09:00:00.000Z', type, payload })}\n`;
    await appendFile(path, line('response_item', { type: 'image_generation_call', id: 'ig1' }));
    await appendFile(path, line('event_msg', { type: 'world_state_changed' }));
    await appendFile(path, line('event_msg', { type: 'item_completed', item: { type: 'HologramProjection', id: 'h1' } }));
    await appendFile(path, '{"timestamp":"2026-11-30T09:00:00.000Z","type":"event_msg","payl\n');
    await appendFile(path, '[1,2]\n');
    const doctor = new CodexFormatDoctor();
    await checkRolloutFile(doctor, path);
    const report = doctor.report();
    const first = builder.take().length;
    expect(report.unmodelled).toEqual([
      { category: 'line type', name: 'future_record_type', lines: 2, versions: ['0.130.0'], first: { file: path, line: first - 1 } },
      { category: 'event type', name: 'world_state_changed', lines: 1, versions: ['0.130.0'], first: { file: path, line: first + 2 } },
      { category: 'item type', name: 'HologramProjection', lines: 1, versions: ['0.130.0'], first: { file: path, line: first + 3 } },
      { category: 'response item type', name: 'image_generation_call', lines: 1, versions: ['0.130.0'], first: { file: path, line: first + 1 } },
    ]);
    expect(report.unreadable).toEqual({
      count: 2,
      examples: [
        { file: path, line: first + 4, reason: 'truncated JSON: the line ends mid-value' },
        { file: path, line: first + 5, reason: 'not a rollout line: no {type, payload} envelope' },
      ],
    });
  });
});

describe('the registry and the parser cannot drift', () => {
  it('the parser claims exactly the registry’s line types', () => {
    expect([...ROLLOUT_LINE_TYPES].sort()).toEqual([...MODELLED.lineTypes].sort());
  });

  it('every modelled response item type has its own handling; an unlisted one is an opaque step', () => {
    for (const type of MODELLED.responseItemTypes) {
      const entry = summarizeLine('response_item', { type, call_id: 'c', name: 'exec_command', arguments: '{}', output: 'ok' }, null);
      expect(entry.as === 'step' ? entry.kind : entry.type, type).not.toBe('unknown');
    }
    const unlisted = summarizeLine('response_item', { type: 'image_generation_call' }, null);
    expect(unlisted.as === 'step' ? unlisted.kind : null).toBe('unknown');
  });

  it('every modelled item type has its own handling; an unlisted one is an opaque record', () => {
    for (const type of MODELLED.itemTypes) {
      const entry = summarizeLine('event_msg', { type: 'item_completed', item: { type, id: 'i1', text: 'x' } }, null);
      expect(entry.as === 'record' ? entry.type : 'step', type).not.toMatch(/^item_completed:/);
    }
    const unlisted = summarizeLine('event_msg', { type: 'item_completed', item: { type: 'HologramProjection' } }, null);
    expect(unlisted).toEqual({ as: 'record', type: 'item_completed:HologramProjection' });
  });

  it('every event the parser makes a step of is modelled', () => {
    const steps = ['user_message', 'agent_message', 'agent_reasoning', 'turn_aborted', 'error', 'task_started', 'token_count', 'exec_command_end', 'patch_apply_end', 'world_state_changed']
      .filter((type) => summarizeLine('event_msg', { type, message: 'x', text: 'x' }, null).as === 'step');
    for (const type of steps) expect(MODELLED.eventTypes, type).toContain(type);
    expect(steps).toEqual(['user_message', 'agent_message', 'agent_reasoning', 'turn_aborted', 'error']);
  });
});
