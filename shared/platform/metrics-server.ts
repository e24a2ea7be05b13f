import { createServer, type Server } from 'node:http';
import { METRICS_CONTENT_TYPE, metricsText } from './metrics.js';

/** An admin listener answering GET /metrics (no token: bind it where only the scraper reaches). */
export async function serveMetrics(
  port: number,
  host: string,
  text: () => Promise<string> = metricsText,
  contentType: string = METRICS_CONTENT_TYPE,
): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    text().then(
      (body) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve()));
  return server;
}
