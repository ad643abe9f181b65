import { spawn } from 'node:child_process';
import { Server, type Socket } from 'node:net';

/**
 * The helper process: it receives the listening socket's handle and sends it back `count` times.
 * Each handle passed over the IPC channel arrives as a new file descriptor of the same socket.
 */
const HELPER = `
// A listener kept (not once) keeps the channel open while the sends wait for their turn.
process.on('message', (_message, handle) => {
  const count = Number(process.argv[1]);
  for (let i = 0; i < count; i++) process.send('accept-handle', handle);
});
`;

/**
 * Opens `extra` more handles on `server`'s listening socket, each handing its connections to
 * `server` as if it had accepted them itself.
 *
 * libuv accepts one connection each time its event loop finds a listening handle readable (one per
 * turn of the loop, libuv/libuv#3696). A node whose loop is busy, as it is when it takes over the
 * clients of a node that went away, turns perhaps a hundred times a second, so hundreds of
 * clients connecting at once waited seconds in the kernel's queue before being accepted at all.
 * Every handle on the socket is polled on each turn, so with `extra` more the node accepts up to
 * `extra + 1` connections a turn. Node 20 cannot open a second listening socket on the port
 * (`reusePort` came later) nor duplicate a descriptor, so a short-lived helper process sends the
 * handle back `extra` times over its IPC channel.
 *
 * Resolves with a function that closes the extra handles (the port stays open until `server`
 * itself closes); with a no-op where the helper could not be used (Windows, whose IOCP accepts
 * differ, or a failure, which is logged: the server works with its one handle).
 */
export async function addAcceptHandles(
  server: Server,
  extra: number,
  backlog: number,
  log: { warn(obj: object, msg?: string): void },
  timeoutMs = 5000,
): Promise<() => Promise<void>> {
  const handle = (server as unknown as { _handle?: unknown })._handle;
  if (extra <= 0 || process.platform === 'win32' || !handle) return async () => undefined;
  const extras: Server[] = [];
  // Closing a handle gives up its descriptor at once; the connections it accepted belong to the
  // HTTP server and end with it (close's callback would wait for them).
  const closeAll = async () => {
    for (const s of extras.splice(0)) s.close();
  };
  const hand = (socket: Socket) => {
    // The HTTP server's own listening socket sets this; connections from the extra handles too.
    socket.setNoDelay(true);
    server.emit('connection', socket);
  };
  const child = spawn(process.execPath, ['-e', HELPER, String(extra)], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env: {} });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no handles back within ${timeoutMs} ms`)), timeoutMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the helper exited (${code ?? signal}) before sending the handles back`));
      });
      child.on('message', (_message, received) => {
        if (!received || extras.length >= extra) return;
        // A raw handle: listening on it again with the server's backlog keeps that backlog (a
        // listen without one would shrink the shared queue to Node's default of 511).
        const copy = new Server({ pauseOnConnect: false }, hand);
        copy.on('error', (error) => log.warn({ err: { message: error.message } }, 'an extra accepting handle failed'));
        copy.listen(received as never, backlog);
        extras.push(copy);
        if (extras.length === extra) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.send('listening-socket', handle as never);
    });
  } catch (error) {
    log.warn({ err: { message: (error as Error).message } }, 'accepting on one handle only');
    await closeAll();
  } finally {
    child.removeAllListeners('exit');
    child.removeAllListeners('error');
    // Whatever the helper or its channel reports once it is gone does not matter any more.
    child.on('error', () => undefined);
    child.kill('SIGKILL');
  }
  return closeAll;
}
