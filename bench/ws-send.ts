/**
 * The server's CPU per WebSocket message when one text goes to a group of connections (a view's
 * changes shared by an audience): sent as a string to each connection (the `ws` library encodes it
 * per socket) against encoded once to UTF-8 bytes that every socket of the group writes as they are
 * (packages/server/src/ws.ts). Loopback only; a child process holds the client connections.
 *
 *   node --import tsx bench/ws-send.ts [--connections 600] [--group 6] [--turns 200] [--rounds 4]
 *
 * Each turn sends one text (a state patch of about 1.3 KB) to every group, corked per socket and
 * written at the end of the turn, as the server does. Prints per round and way the process's CPU
 * time (all threads) per message, the two ways alternating, and the median ratio.
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  const n = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1 || n > 5000) throw new Error(`--${name} is a whole number from 1 to 5000`);
  return n;
};

if (args[0] === 'client') {
  const [port, count] = [Number(args[1]), Number(args[2])];
  let open = 0;
  for (let i = 0; i < count; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    ws.on('open', () => {
      if (++open === count) process.send!('ready');
    });
  }
  process.on('disconnect', () => process.exit(0));
} else {
  const connections = option('connections', 600);
  const group = option('group', 6);
  const turns = option('turns', 200);
  const rounds = option('rounds', 4);
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await new Promise((resolve) => wss.once('listening', resolve));
  const port = (wss.address() as { port: number }).port;
  const peers: Array<{ ws: WebSocket; socket: Duplex }> = [];
  wss.on('connection', (ws, req) => peers.push({ ws, socket: req.socket }));
  const child = fork(new URL(import.meta.url), ['client', String(port), String(connections)], { execArgv: ['--import', 'tsx'] });
  await new Promise((resolve) => child.once('message', resolve));
  const explanation = Array.from({ length: 24 }, (_, i) => `Pair #${i + 1}: 7+0 = 7 against 3+0 = 3: Roller wins; é`);
  const text = JSON.stringify({ type: 'state-patch', version: 3, base: 2, set: { seq: 3 }, arrays: { log: { drop: 0, append: [{ seq: 3, result: { explanation } }] } } });

  const measure = (bytesOnce: boolean) =>
    new Promise<number>((resolve) => {
      const c0 = process.cpuUsage();
      let turn = 0;
      const step = () => {
        for (let g = 0; g + group <= peers.length; g += group) {
          const data = bytesOnce ? Buffer.from(text, 'utf8') : text;
          for (let j = g; j < g + group; j++) {
            const { ws, socket } = peers[j]!;
            socket.cork();
            ws.send(data, { binary: false });
            process.nextTick(() => socket.uncork());
          }
        }
        if (++turn < turns) setImmediate(step);
        else {
          const c = process.cpuUsage(c0);
          resolve((c.user + c.system) / (turns * Math.floor(peers.length / group) * group));
        }
      };
      step();
    });

  const ratios: number[] = [];
  console.log(`load average ${loadavg()[0]!.toFixed(2)}; ${peers.length} connections in groups of ${group}, ${turns} turns, ${text.length} bytes a message`);
  for (let r = 1; r <= rounds; r++) {
    const perString = await measure(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const perBytes = await measure(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    ratios.push(perBytes / perString);
    console.log(JSON.stringify({ round: r, stringUsPerMessage: Number(perString.toFixed(2)), bytesOnceUsPerMessage: Number(perBytes.toFixed(2)), ratio: Number((perBytes / perString).toFixed(2)) }));
  }
  ratios.sort((a, b) => a - b);
  console.log(`median ratio (bytes once / string per socket): ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)}; load average ${loadavg()[0]!.toFixed(2)}`);
  child.disconnect();
  wss.close();
  process.exit(0);
}
