/** Quotes a path for a POSIX shell: single quotes, with embedded single quotes closed and escaped. */
export function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The line to paste into a terminal: go to the fork's folder, then continue the run there. */
export function resumeLine(dir: string, resume: string): string {
  return `cd ${shellQuote(dir)} && ${resume}`;
}
