import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { secretDecider, type SecretCommand, type SecretEvent, type SecretState } from './fixtures/secret-decider';
import type { Decider } from '../src/domain';
import { createTable, startServer, TestClient, type Running } from './helpers';

const CLIENTS = 48;

/**
 * Keeps the event loop busy in slices of `stepMs` (yielding with setImmediate, as TimeSlice does)
 * while CLIENTS connections are opened at once, and returns how many the server accepted on each
 * turn of the loop.
 */
async function acceptsPerTurn(srv: Running, stepMs = 3): Promise<number[]> {
  const port = Number(new URL(srv.url).port);
  const perTurn: number[] = [];
  let turn = 0;
  let accepted = 0;
  const onConnection = () => {
    accepted++;
    perTurn[turn] = (perTurn[turn] ?? 0) + 1;
  };
  srv.server.app.server.on('connection', onConnection);
  const sockets: Socket[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const step = () => {
        if (turn === 0) {
          for (let i = 0; i < CLIENTS; i++) sockets.push(connect(port, '127.0.0.1').on('error', () => undefined));
        }
        turn++;
        const until = performance.now() + stepMs;
        while (performance.now() < until);
        if (accepted >= CLIENTS) resolve();
        else if (turn > 20 * CLIENTS) reject(new Error(`only ${accepted} of ${CLIENTS} accepted in ${turn} turns`));
        else setImmediate(step);
      };
      setImmediate(step);
    });
  } finally {
    srv.server.app.server.off('connection', onConnection);
    for (const s of sockets) s.destroy();
  }
  return perTurn.filter((n) => n !== undefined);
}

describe('accepting connections while the event loop is busy', () => {
  let srv: Running | null = null;
  afterEach(async () => {
    await srv?.close();
    srv = null;
  });

  // libuv accepts one connection per listening handle and turn of the loop: a node busy taking over
  // another's tables accepted its hundreds of new clients one turn at a time.
  it('accepts one connection a turn with the server handle alone', async () => {
    srv = await startServer(secretDecider, { config: { acceptHandles: 1, maxConnectionsPerAddress: 1000 } });
    const perTurn = await acceptsPerTurn(srv);
    expect(Math.max(...perTurn)).toBe(1);
    expect(perTurn.length).toBe(CLIENTS);
  });

  it('accepts several connections a turn with extra handles on the listening socket', async () => {
    srv = await startServer(secretDecider, { config: { acceptHandles: 8, maxConnectionsPerAddress: 1000 } });
    const perTurn = await acceptsPerTurn(srv);
    expect(Math.max(...perTurn)).toBeGreaterThan(1);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(8);
    // 48 connections in far fewer turns than 48 (8 a turn once they are all queued).
    expect(perTurn.length).toBeLessThan(CLIENTS / 2);
  });

  it('serves HTTP and WebSocket clients with extra handles and closes the port with the server', async () => {
    srv = await startServer(secretDecider, { config: { acceptHandles: 4, maxConnectionsPerAddress: 1000 } });
    const table = await createTable(srv.url);
    const welcomed = await Promise.all(
      Array.from(
        { length: 12 },
        () =>
          new Promise<string>((resolve, reject) => {
            const ws = new WebSocket(srv!.wsUrl);
            ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', tableId: table.tableId, token: table.gm.token })));
            ws.on('message', (data) => {
              const m = JSON.parse(String(data)) as { type: string };
              ws.close();
              resolve(m.type);
            });
            ws.on('error', reject);
          }),
      ),
    );
    expect(welcomed).toEqual(Array(12).fill('welcome'));
    const port = Number(new URL(srv.url).port);
    await srv.close();
    srv = null;
    // No extra handle keeps the socket listening once the server is closed.
    const refused = await new Promise<string>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.on('connect', () => {
        s.destroy();
        resolve('connected');
      });
      s.on('error', (error: Error & { code?: string }) => resolve(error.code ?? error.message));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});

describe('welcomes while many clients say hello at once', () => {
  let srv: Running | null = null;
  afterEach(async () => {
    await srv?.close();
    srv = null;
  });

  // The clients of a lost node all say hello to a node at once; their welcomes (each building the
  // client's view) share the turn's budget with the sliced loops instead of all running in one turn,
  // between which the node accepts no new connection.
  it('builds the welcomes of hellos that wait together over several turns of the event loop', async () => {
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    const viewedIn: number[] = [];
    let hellos = 0;
    const slowViews: Decider<SecretState, SecretCommand, SecretEvent> = {
      ...secretDecider,
      // Each hello an audience of its own, so that each builds its view (hellos of one audience share one).
      audience: () => `hello-${++hellos}`,
      viewState(state, viewer) {
        viewedIn.push(turn);
        const until = performance.now() + 3;
        while (performance.now() < until);
        return secretDecider.viewState(state, viewer);
      },
    };
    srv = await startServer(slowViews, { config: { maxConnectionsPerAddress: 1000 } });
    const table = await createTable(srv.url);
    const clients = await Promise.all(Array.from({ length: 30 }, () => TestClient.connect(srv!.wsUrl)));
    viewedIn.length = 0;
    setImmediate(tick);
    try {
      const answers = await Promise.all(clients.map((c) => c.hello(table.tableId, table.gm.token)));
      expect(answers.map((a) => a.type)).toEqual(Array(30).fill('welcome'));
    } finally {
      ticking = false;
      for (const c of clients) c.ws.close();
    }
    const perTurn = new Map<number, number>();
    for (const t of viewedIn) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    // 30 views of 3 ms with a budget of 10 ms a turn: about 4 a turn; in one turn they took 90 ms.
    expect(viewedIn.length).toBe(30);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(6);
  });
});
