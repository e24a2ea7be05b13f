import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';

const ANSWERS: Record<string, { status: number; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', message: 'the request line and headers are larger than the server accepts (16 KiB)' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'the request was not received in time' },
};
const MALFORMED = { status: 400, code: 'malformed_request', message: 'the request is not valid HTTP/1.1' };

/**
 * Node's HTTP parser refuses some requests before Koa sees them (a URL or headers over 16 KiB,
 * broken request lines) and answers with an empty body. Answer them with the error body like
 * every other 4xx, so a client can always read `error.code`.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = (err.code && ANSWERS[err.code]) || MALFORMED;
    const requestId = `req_${randomUUID()}`;
    const body = JSON.stringify({ error: { code: answer.code, message: answer.message, request_id: requestId } });
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
