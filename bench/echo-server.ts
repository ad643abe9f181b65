/**
 * The baseline of bench/server-load.ts: a WebSocket server that does the least a table server
 * must do per command, with the same library (ws) on the same loopback. A `hello` puts the
 * connection in its table's group and is answered with a small welcome; a `command` is parsed,
 * turned into one event message (serialized once) sent to every connection of the table, and
 * answered with an ack to its sender. No store, no rules, no views.
 *
 * Started by the benchmark as a child process; prints {"msg":"echo ready","port":N} and stops on
 * SIGTERM, or by itself after --max-seconds (default 900).
 */
import { createServer } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

const maxSeconds = Number(process.argv[process.argv.indexOf('--max-seconds') + 1] || 900);
const http = createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server: http, path: '/ws', perMessageDeflate: false });
const groups = new Map<string, { seq: number; members: Set<WebSocket> }>();

wss.on('connection', (ws) => {
  let group: { seq: number; members: Set<WebSocket> } | null = null;
  ws.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString('utf8')) as { type: string; tableId?: string; commandId?: string; command?: unknown };
    if (m.type === 'hello' && typeof m.tableId === 'string') {
      group = groups.get(m.tableId) ?? { seq: 0, members: new Set() };
      groups.set(m.tableId, group);
      group.members.add(ws);
      ws.send(JSON.stringify({ type: 'welcome', tableId: m.tableId, version: group.seq }));
    } else if (m.type === 'command' && group) {
      const seq = ++group.seq;
      const text = JSON.stringify({ type: 'event', seq, at: new Date().toISOString(), event: m.command });
      for (const member of group.members) member.send(text);
      ws.send(JSON.stringify({ type: 'ack', commandId: m.commandId, firstSeq: seq, lastSeq: seq, version: seq }));
    }
  });
  ws.on('close', () => group?.members.delete(ws));
});

http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  console.log(JSON.stringify({ msg: 'echo ready', port: typeof address === 'object' && address ? address.port : 0 }));
});
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setTimeout(stop, maxSeconds * 1000).unref();
