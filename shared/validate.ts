/**
 * A tiny runtime schema: enough to check every payload the untrusted renderer sends, without a dependency.
 * A validator returns the value typed, or throws ArborError('BAD_REQUEST') naming the bad field.
 */
import { ArborError } from './errors';

export type Validator<T> = (value: unknown, path?: string) => T;

function fail(path: string, expected: string): never {
  throw new ArborError('BAD_REQUEST', `${path || 'payload'}: expected ${expected}`, { path });
}

export const v = {
  string(opts: { min?: number; max?: number } = {}): Validator<string> {
    const { min = 0, max = 100_000 } = opts;
    return (value, path = '') => {
      if (typeof value !== 'string') fail(path, 'a string');
      if (value.length < min || value.length > max) fail(path, `a string of ${min}–${max} characters`);
      return value;
    };
  },
  int(opts: { min?: number; max?: number } = {}): Validator<number> {
    const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = opts;
    return (value, path = '') => {
      if (typeof value !== 'number' || !Number.isInteger(value)) fail(path, 'an integer');
      if (value < min || value > max) fail(path, `an integer in ${min}..${max}`);
      return value;
    };
  },
  boolean(): Validator<boolean> {
    return (value, path = '') => (typeof value === 'boolean' ? value : fail(path, 'a boolean'));
  },
  literal<const L extends string>(...options: L[]): Validator<L> {
    return (value, path = '') =>
      typeof value === 'string' && (options as string[]).includes(value) ? (value as L) : fail(path, options.join(' | '));
  },
  array<T>(item: Validator<T>, opts: { max?: number } = {}): Validator<T[]> {
    const { max = 10_000 } = opts;
    return (value, path = '') => {
      if (!Array.isArray(value)) fail(path, 'an array');
      if (value.length > max) fail(path, `at most ${max} items`);
      return value.map((x, i) => item(x, `${path}[${i}]`));
    };
  },
  optional<T>(inner: Validator<T>): Validator<T | undefined> {
    return (value, path = '') => (value === undefined ? undefined : inner(value, path));
  },
  nullable<T>(inner: Validator<T>): Validator<T | null> {
    return (value, path = '') => (value === null ? null : inner(value, path));
  },
  /** An object with exactly these keys (unknown keys are refused: the renderer is untrusted). */
  object<S extends Record<string, Validator<unknown>>>(shape: S): Validator<{ [K in keyof S]: ReturnType<S[K]> }> {
    return (value, path = '') => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object');
      const input = value as Record<string, unknown>;
      for (const key of Object.keys(input)) {
        if (!(key in shape)) fail(path ? `${path}.${key}` : key, 'no such field');
      }
      const out: Record<string, unknown> = {};
      for (const [key, check] of Object.entries(shape)) {
        const result = check(input[key], path ? `${path}.${key}` : key);
        if (result !== undefined) out[key] = result;
      }
      return out as { [K in keyof S]: ReturnType<S[K]> };
    };
  },
};
