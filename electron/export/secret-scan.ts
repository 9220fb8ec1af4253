/**
 * Finds secrets in decoded text (never in JSON: a key split by an escaped newline is one string here) with
 * secretlint's recommended rule set, plus Arbor's narrow rules for what the set misses and issue 15 names:
 * secrets in an environment dump (`PASSWORD=…`, `GITHUB_TOKEN=…` lines, as `env` or `printenv` print them).
 * secretlint is ESM-only: it is loaded with import() once, which works from the CommonJS bundles (Electron
 * main, the CLI) and from vitest alike.
 */
import type { lintSource as LintSourceFunction } from '@secretlint/core';
import type { SecretLintCoreConfig } from '@secretlint/types';

export interface SecretHit {
  readonly rule: string;
  readonly start: number;
  readonly end: number;
}

export type SecretScanner = (text: string) => Promise<SecretHit[]>;

type LintSource = typeof LintSourceFunction;
let loaded: Promise<{ lintSource: LintSource; config: SecretLintCoreConfig }> | undefined;

function loadSecretlint(): Promise<{ lintSource: LintSource; config: SecretLintCoreConfig }> {
  loaded ??= Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]).then(([core, preset]) => ({
    lintSource: core.lintSource,
    config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] },
  }));
  return loaded;
}

/**
 * A variable whose name says it holds a secret, at the start of a line (optionally `export`ed), and its value (up to a space: `NPM_TOKEN=… npm publish`).
 * Names are an environment's: upper case (`PASSWORD`, `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`), or a config
 * file's lower-case `password`/`secret`.
 */
const ENV_SECRET =
  /^[ \t]*(?:export[ \t]+)?(?:[A-Z0-9_]*_)?(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?|password|passwd|secret)(?:_[A-Z0-9_]*)?[ \t]*=[ \t]*(["']?)([^\s"']{6,})\1/gm;
/** Values that name no secret: references to other variables, placeholders and values already masked. */
const NOT_A_SECRET = /^(?:\$\{?[A-Za-z_]|<[^>]*>$|\*+$|x+$|\.\.\.|(?:true|false|null|none|changeme|redacted)$)/i;

/** Arbor's own rules: `arbor/env-secret`. */
export function envSecretHits(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  if (!text.includes('=')) return hits;
  for (const match of text.matchAll(ENV_SECRET)) {
    const value = match[2]!;
    if (NOT_A_SECRET.test(value)) continue;
    const start = match.index + match[0].lastIndexOf(value);
    hits.push({ rule: 'arbor/env-secret', start, end: start + value.length });
  }
  return hits;
}

/** The scanner: every hit, sorted by position, overlapping hits merged (the first rule names the merge). */
export async function createSecretScanner(): Promise<SecretScanner> {
  const { lintSource, config } = await loadSecretlint();
  return async (text) => {
    if (text.length === 0) return [];
    const result = await lintSource({
      source: { filePath: '/arbor-export.txt', content: text, contentType: 'text' },
      options: { config, noPhysicFilePath: true },
    });
    const hits: SecretHit[] = envSecretHits(text);
    for (const message of result.messages) {
      const [start, end] = secretRange(text, message.range, message.data);
      if (end > start) hits.push({ rule: message.ruleId.replace(/^@secretlint\/secretlint-rule-/, 'secretlint/'), start, end });
    }
    return mergeHits(hits);
  };
}

/**
 * Where the secret itself is. Some rules report their match's start with the secret's length (the AWS secret
 * key rule: `aws_secret_access_key = GHdY…` cut short), so the secret the message names is looked up near it.
 */
function secretRange(text: string, range: readonly [number, number], data: unknown): [number, number] {
  const [start, end] = range;
  if (typeof data === 'object' && data !== null) {
    for (const value of Object.values(data as Record<string, unknown>)) {
      if (typeof value !== 'string' || value.length < 8) continue;
      const at = text.indexOf(value, Math.max(0, start - value.length));
      if (at >= 0 && at <= end) return [at, at + value.length];
    }
  }
  return [start, end];
}

function mergeHits(hits: SecretHit[]): SecretHit[] {
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretHit[] = [];
  for (const hit of hits) {
    const last = merged[merged.length - 1];
    if (last !== undefined && hit.start < last.end) {
      if (hit.end > last.end) merged[merged.length - 1] = { ...last, end: hit.end };
    } else merged.push(hit);
  }
  return merged;
}
