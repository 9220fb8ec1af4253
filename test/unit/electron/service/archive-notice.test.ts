/** The cleanupPeriodDays notice's decision (issue 15): said for Claude Code's default only, once, where Claude Code is. */
import { describe, expect, it } from 'vitest';
import { cleanupNotice, cleanupSettingOf } from '../../../../electron/service/archive-notice';

const SETTINGS = '/home/u/.claude/settings.json';
const decide = (text: string | null, options: { dismissed?: boolean; claudeCodeHere?: boolean } = {}) =>
  cleanupNotice({ setting: cleanupSettingOf(text), claudeCodeHere: options.claudeCodeHere ?? true, dismissed: options.dismissed ?? false, settingsFile: SETTINGS });

describe('the cleanupPeriodDays notice', () => {
  it('is said when there is no settings file: Claude Code then deletes after 30 days', () => {
    expect(decide(null)).toEqual({ kind: 'cleanup-default', days: 30, settingsFile: SETTINGS, setting: 'cleanupPeriodDays', exampleDays: 365 });
  });

  it('is said when the settings leave the setting out (or null)', () => {
    expect(decide('{"model":"opus","permissions":{"allow":[]}}')?.days).toBe(30);
    expect(decide('{"cleanupPeriodDays":null}')?.kind).toBe('cleanup-default');
  });

  it('says nothing when the setting is set, even to the default value', () => {
    expect(decide('{"cleanupPeriodDays":365}')).toBeNull();
    expect(decide('{"cleanupPeriodDays":30}')).toBeNull();
    expect(decide('{ "cleanupPeriodDays": 99999 }\n')).toBeNull();
  });

  it('says nothing once dismissed, nor on a machine without Claude Code', () => {
    expect(decide(null, { dismissed: true })).toBeNull();
    expect(decide(null, { claudeCodeHere: false })).toBeNull();
  });

  it('says nothing about a settings file it cannot read as an object (what Claude Code does with it is not known)', () => {
    expect(cleanupSettingOf('{"cleanupPeriodDays": 3')).toEqual({ kind: 'unreadable' });
    expect(cleanupSettingOf('[1,2]')).toEqual({ kind: 'unreadable' });
    expect(decide('not json')).toBeNull();
  });
});
