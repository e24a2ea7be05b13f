import t from 'tap';
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

// /widget.js and /widget.css as bytes on the wire: the encoding Accept-Encoding allows, an ETag per
// encoding, 304 only for the representation the tag names. A small stand-in build, not the real bundle.
const dir = mkdtempSync(join(tmpdir(), 'pss-widget-'));
const SCRIPT = `console.log(${JSON.stringify('widget '.repeat(200))});\n`;
writeFileSync(join(dir, 'widget.js'), SCRIPT);
writeFileSync(join(dir, 'widget.css'), '.pss{color:red}\n');
writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ hash: 'abc123' }));
process.env.WIDGET_DIR = dir;
const { setup } = await import('../helpers/harness.js');
const h = await setup();
t.teardown(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One GET with exactly these headers (fetch would add its own Accept-Encoding and decode). */
const get = (path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(h.api.url + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

t.test('Accept-Encoding: q=0 refuses gzip; each encoding has its own ETag', async (t) => {
  const refused = await get('/widget.js', { 'accept-encoding': 'gzip;q=0, identity' });
  t.equal(refused.status, 200);
  t.equal(refused.headers['content-encoding'], undefined, 'gzip;q=0: not gzip');
  t.equal(refused.body.toString(), SCRIPT);
  t.match(refused.headers.vary, /Accept-Encoding/i);

  const gzip = await get('/widget.js', { 'accept-encoding': 'gzip, deflate, br' });
  t.equal(gzip.headers['content-encoding'], 'gzip');
  t.equal(gunzipSync(gzip.body).toString(), SCRIPT);
  const plain = await get('/widget.js', {});
  t.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: plain');
  t.equal(plain.headers.etag, refused.headers.etag);
  t.not(gzip.headers.etag, plain.headers.etag, 'the gzip bytes and the plain bytes have different strong ETags');

  t.equal((await get('/widget.js', { 'accept-encoding': 'gzip', 'if-none-match': String(gzip.headers.etag) })).status, 304);
  t.equal((await get('/widget.js', { 'if-none-match': String(plain.headers.etag) })).status, 304);
  const other = await get('/widget.js', { 'if-none-match': String(gzip.headers.etag) });
  t.same([other.status, other.body.toString()], [200, SCRIPT], 'the gzip tag does not validate the plain answer');
  t.equal((await get('/widget.js', { 'accept-encoding': 'gzip', 'if-none-match': `"x", ${gzip.headers.etag}` })).status, 304, 'a list of tags');
  t.equal((await get('/widget.css', { 'accept-encoding': 'gzip;q=0' })).headers['content-encoding'], undefined, 'the CSS alike');
});
