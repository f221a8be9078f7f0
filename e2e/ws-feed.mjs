// A WebSocket server on loopback that sends lines of text as fast as a busy group-broker would
// (the browser tests' stand-in for `group-broker --live`): the handshake of RFC 6455 and
// unmasked text frames, nothing more. `feedServer(messages, perTick, tickMs)` sends `perTick`
// messages every `tickMs` to each client that connects, then closes with code 1000.

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** A frame (FIN; text unless `opcode` says otherwise), unmasked as a server's are: its length
 * in 7 bits, or 126 and 16 bits, or 127 and 64 bits. */
function frame(payload, opcode = 0x1) {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const n = body.length;
  const extra = n < 126 ? 0 : n < 65536 ? 2 : 8;
  const head = Buffer.alloc(2 + extra);
  head[0] = 0x80 | opcode;
  head[1] = extra === 0 ? n : extra === 2 ? 126 : 127;
  if (extra === 2) head.writeUInt16BE(n, 2);
  if (extra === 8) head.writeBigUInt64BE(BigInt(n), 2);
  return Buffer.concat([head, body]);
}

export async function feedServer(messages, perTick = 40, tickMs = 10) {
  const server = createServer((_, res) => res.writeHead(426).end());
  server.on('upgrade', (req, socket) => {
    const accept = createHash('sha1')
      .update(req.headers['sec-websocket-key'] + GUID)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    let at = 0;
    const timer = setInterval(() => {
      for (let k = 0; k < perTick && at < messages.length; k++) socket.write(frame(messages[at++]));
      if (at >= messages.length) {
        clearInterval(timer);
        // A clean close: code 1000.
        socket.end(frame(Buffer.from([0x03, 0xe8]), 0x8));
      }
    }, tickMs);
    socket.on('error', () => clearInterval(timer));
    socket.on('close', () => clearInterval(timer));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `ws://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}
