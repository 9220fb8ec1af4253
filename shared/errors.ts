/** Stable error codes that cross the boundary; tests assert these, never message text. */
export const ERROR_CODES = [
  'BAD_REQUEST', // payload failed validation
  'NOT_FOUND', // session, node or file does not exist
  'CANCELLED', // the caller aborted a long operation
  'IO', // the filesystem refused (permissions, missing path, disk full)
  'UNAUTHORIZED', // web host: missing or wrong token, bad Origin/Host
  'UNSUPPORTED', // the capability does not exist in this host (e.g. dialogs in web mode)
  'STORE_BUSY', // another process kept the store's write lock longer than Arbor waits
  'READ_ONLY', // the data folder cannot be written: reads work, writes are refused
  'EXISTS', // the file to write is already there and replacing it was not asked for (export)
  'CORRUPT', // an archive's manifest, checksum or files do not match what it says it holds
  'INTERNAL', // a bug: anything not classified above
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The shape an error takes on the wire. */
export interface ArborErrorData {
  readonly code: ErrorCode;
  readonly message: string;
  readonly data?: unknown;
}

export class ArborError extends Error implements ArborErrorData {
  readonly code: ErrorCode;
  readonly data?: unknown;
  constructor(code: ErrorCode, message: string, data?: unknown) {
    super(message);
    this.name = 'ArborError';
    this.code = code;
    this.data = data;
  }
  toJSON(): ArborErrorData {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** The one cancellation error: thrown by long operations when their AbortSignal fires. */
export class CancelledError extends ArborError {
  constructor(message = 'Operation cancelled') {
    super('CANCELLED', message);
    this.name = 'CancelledError';
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

export function isArborErrorData(value: unknown): value is ArborErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && (ERROR_CODES as readonly string[]).includes(v.code) && typeof v.message === 'string';
}

/** Turns anything thrown into wire data; unknown throws become INTERNAL. */
export function toErrorData(error: unknown): ArborErrorData {
  if (error instanceof ArborError) return error.toJSON();
  if (isArborErrorData(error)) return { code: error.code, message: error.message, data: error.data };
  if (error instanceof Error) return { code: 'INTERNAL', message: error.message };
  return { code: 'INTERNAL', message: String(error) };
}

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
