/**
 * The import benches' anchor: what merely reading and parsing every line costs (1 MiB reads, lines split, each
 * JSON.parse'd, nothing kept), measured in the same run as the import it is set beside.
 */
import { open } from 'node:fs/promises';

const MiB = 1024 * 1024;

export async function rawParse(files: readonly string[]): Promise<{ lines: number; bytes: number }> {
  const buffer = Buffer.allocUnsafe(MiB);
  let lines = 0;
  let bytes = 0;
  for (const file of files) {
    const handle = await open(file, 'r');
    try {
      let carry: Buffer = Buffer.alloc(0);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, MiB, null);
        if (bytesRead === 0) break;
        bytes += bytesRead;
        const chunk = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
        let start = 0;
        for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
          if (end > start) {
            JSON.parse(chunk.toString('utf8', start, end));
            lines++;
          }
          start = end + 1;
        }
        carry = Buffer.from(chunk.subarray(start));
      }
      if (carry.length > 0) {
        JSON.parse(carry.toString('utf8'));
        lines++;
      }
    } finally {
      await handle.close();
    }
  }
  return { lines, bytes };
}
