/**
 * The scanner finds realistic generated secrets (secretlint skips the well-known example keys, so these are
 * generated), in decoded text, and Arbor's env-dump rule stays narrow.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createSecretScanner, envSecretHits, type SecretScanner } from '../../../../electron/export/secret-scan';
import { plantedSecrets } from '../../../integration/export/export-session';

let scan: SecretScanner;
const secrets = plantedSecrets(7);

beforeAll(async () => {
  scan = await createSecretScanner();
});

async function found(text: string): Promise<string[]> {
  return (await scan(text)).map((hit) => text.slice(hit.start, hit.end));
}

describe('the secret scanner', () => {
  it.each([
    ['a GitHub token', `use ${secrets.githubToken} for the API`, secrets.githubToken],
    ['a Slack bot token', `SLACK=${secrets.slackToken}`, secrets.slackToken],
    ['an Anthropic key', `key: ${secrets.anthropicKey}`, secrets.anthropicKey],
    ['an npm token', `//registry.npmjs.org/:_authToken=${secrets.npmToken}`, secrets.npmToken],
    ['a password in a database URL', `psql postgres://admin:${secrets.databasePassword}@db.internal:5432/app`, `postgres://admin:${secrets.databasePassword}@db.internal:5432/app`],
    ['a password in an https URL', `curl https://deploy:${secrets.basicAuthPassword}@git.example.com/x`, `https://deploy:${secrets.basicAuthPassword}@git.example.com`],
    ['an AWS secret key, without the name before it', `aws_secret_access_key = ${secrets.awsSecretKey}`, secrets.awsSecretKey],
  ])('finds %s', async (_what, text, secret) => {
    expect(await found(text)).toContain(secret);
  });

  it('finds a private key whose lines a JSON string escaped (the scan reads decoded text)', async () => {
    const decoded = JSON.parse(JSON.stringify({ content: secrets.privateKey })) as { content: string };
    expect(JSON.stringify(secrets.privateKey)).toContain('\\n');
    const hits = await found(`Wrote the key:\n${decoded.content}`);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toContain('-----BEGIN RSA PRIVATE KEY-----');
    expect(hits[0]).toContain('-----END RSA PRIVATE KEY-----');
  });

  it('finds the secrets of an environment dump that the rule set misses (PASSWORD=, *_TOKEN=)', async () => {
    const dump = `HOME=/home/dev\nPASSWORD=${secrets.envPassword}\nGITHUB_TOKEN=${secrets.envToken}\nexport DB_PASSWORD="${secrets.databasePassword}"\nPATH=/usr/bin`;
    expect(await found(dump)).toEqual([secrets.envPassword, secrets.envToken, secrets.databasePassword]);
  });

  it('finds nothing in text without secrets', async () => {
    expect(await scan('npm test\n✓ 12 passed\nLOG_LEVEL=info\nrsync -az --delete dist/ deploy@host:/srv/app')).toEqual([]);
  });
});

describe('the env-dump rule (arbor/env-secret)', () => {
  it('leaves variable references, placeholders, masked values and ordinary names alone', () => {
    const text = [
      'PASSWORD=$DB_PASSWORD',
      'API_TOKEN=${TOKEN}',
      'SECRET=<your secret here>',
      'GITHUB_TOKEN=********',
      'PASSWORD=short',
      'input_tokens=123456789',
      'TOKENIZER_PATH=/opt/models/tok',
      'LOG_LEVEL=debugging',
    ].join('\n');
    expect(envSecretHits(text)).toEqual([]);
  });

  it('stops a value at the first space (an assignment before a command)', () => {
    const text = `NPM_TOKEN=${secrets.npmToken} npm publish`;
    const [hit] = envSecretHits(text);
    expect(text.slice(hit!.start, hit!.end)).toBe(secrets.npmToken);
  });
});
