import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { createGzip } from 'node:zlib';

/** A 512-byte ustar header for a regular file. */
function header(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(512);
  const put = (value: string, offset: number, length: number) => h.write(value, offset, length, 'ascii');
  const octal = (n: number, length: number) => n.toString(8).padStart(length - 1, '0') + '\0';
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(mtime / 1000), 12), 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  put(octal(sum, 7) + ' ', 148, 8);
  return h;
}

/** Writes `files` (name in the archive, path on disk) as one .tar.gz: the standard format `tar -xzf` reads. */
export async function writeTarGz(target: string, files: Array<{ name: string; path: string }>): Promise<number> {
  const tar = new PassThrough();
  const done = pipeline(tar, createGzip(), createWriteStream(target));
  const now = Date.now();
  for (const f of files) {
    if (Buffer.byteLength(f.name) > 99) throw new Error(`archive entry name too long: ${f.name}`);
    const { size } = await stat(f.path);
    tar.write(header(f.name, size, now));
    for await (const chunk of createReadStream(f.path)) {
      if (!tar.write(chunk)) await new Promise((r) => tar.once('drain', r));
    }
    const pad = (512 - (size % 512)) % 512;
    if (pad) tar.write(Buffer.alloc(pad));
  }
  tar.end(Buffer.alloc(1024));
  await done;
  return (await stat(target)).size;
}
