/** Display helpers shared by the list, the search panel and the inspector. */

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const narrowRelativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'narrow' });
const absoluteFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "3 hours ago", "yesterday"; `now` is injectable for tests. */
export function relativeTime(iso: string | null | undefined, now: number = Date.now(), format = relativeFormat): string {
  const date = parse(iso);
  if (!date) return '—';
  const diff = date.getTime() - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return format.format(Math.round(diff / ms), unit);
  }
  return 'just now';
}

/** "3h ago", "11mo ago": where a narrow list has no room for the long form beside what else the line says. */
export function narrowRelativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  return relativeTime(iso, now, narrowRelativeFormat);
}

export function absoluteTime(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? absoluteFormat.format(date) : 'unknown time';
}

/** The last two path segments, with "…/" in front when shortened ("/home/a/src/arbor" → "…/src/arbor"). */
export function shortenPath(path: string | null | undefined): string {
  if (!path) return '';
  const parts = path.split(/[\\/]+/).filter(Boolean);
  if (parts.length <= 2) return path;
  return `…/${parts.slice(-2).join('/')}`;
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

const numberFormat = new Intl.NumberFormat();
export const formatCount = (n: number): string => numberFormat.format(n);

/** Human names for node kinds. */
export const KIND_LABELS = {
  user: 'User',
  assistant: 'Assistant',
  thinking: 'Thinking',
  tool_call: 'Tool call',
  tool_result: 'Tool result',
  error: 'Error',
  compaction: 'Compaction',
  'merge-summary': 'Merge summary',
  system: 'System',
  progress: 'Progress',
  unknown: 'Unknown',
} as const;

/** "1 session", "3 sessions" (English plurals with -s are all the UI needs). */
export const plural = (n: number, noun: string): string => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
