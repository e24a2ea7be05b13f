import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** Streams a `.jsonl` or `.jsonl.gz` file, yielding one parsed JSON value per non-blank line. */
export async function* readJsonl(path: string): AsyncGenerator<unknown> {
  const file = createReadStream(path);
  // pipeline() forwards failures (missing file, corrupt gzip) to the last stage, so the loop below rejects.
  const input: Readable = path.endsWith('.gz') ? pipeline(file, createGunzip(), () => {}) : file;
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const line of lines) {
      lineNo++;
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        throw new Error(`${path}:${lineNo}: invalid JSON: ${(err as Error).message}`);
      }
      yield value;
    }
  } finally {
    // Also runs when the consumer stops early (break): release the file handle.
    lines.close();
    input.destroy();
    file.destroy();
  }
}
