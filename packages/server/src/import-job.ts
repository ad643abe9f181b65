import { startWorker } from '@personae/core/worker';
import type { PreparedImport } from './export';
import { JsonInputError } from './json';
import type { Failure, Outcome } from './outcome';
import type { EventRecord } from './store/types';
import { yieldToEventLoop } from './yield';

/**
 * Checking an import off the thread that serves requests: parsing a file of tens of megabytes,
 * checking it and folding every event through the rules all run in a worker thread of their own
 * (import-worker.ts), so neither that work nor the garbage it leaves can hold the event loop. The
 * events come back as their JSON text, in parts, and go to the store as they are (`EventRecord.json`).
 */
export interface ImportRequest {
  text: string;
  maxDepth: number;
  /** Rulesets the server hosts: the worker refuses a file of any other. */
  rulesets: readonly string[];
}

type TextEvent = Omit<EventRecord, 'event' | 'json'> & { json: string };

export type ImportReply =
  | { type: 'json-error'; code: JsonInputError['code']; message: string; field?: string }
  | { type: 'refused'; failure: Failure }
  | { type: 'table'; prepared: PreparedImport; events: number }
  | { type: 'events'; events: TextEvent[] }
  | { type: 'crashed'; message: string };

/**
 * Runs one import check in a new worker thread. Resolves as `prepareImport` does (each event's
 * text in `json`, its `event` left out as null); throws `JsonInputError` for a body that is not acceptable JSON.
 */
export async function checkImportInWorker(request: ImportRequest): Promise<Outcome<PreparedImport>> {
  // At most IMPORT_WORKERS imports are checked at once (each worker holds its file a few times over
  // while it works); the others wait their turn.
  while (running >= IMPORT_WORKERS) await new Promise<void>((wake) => waiting.push(wake));
  running++;
  try {
    return await runImportWorker(request);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const IMPORT_WORKERS = 2;
let running = 0;
const waiting: Array<() => void> = [];

function runImportWorker(request: ImportRequest): Promise<Outcome<PreparedImport>> {
  return new Promise((resolve, reject) => {
    // From the sources the worker is TypeScript; in the built server (scripts/build-server.mjs) it is built beside it.
    const fromSources = new URL(import.meta.url).pathname.endsWith('.ts');
    const worker = startWorker(new URL(fromSources ? './import-worker.ts' : './import-worker.mjs', import.meta.url), request);
    let prepared: PreparedImport | null = null;
    let expected = 0;
    let settled = false;
    // Parts are taken one per turn of the event loop, so other requests are served between them.
    let queue = Promise.resolve();
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.on('message', (reply: ImportReply) => {
      queue = queue.then(async () => {
        if (settled) return;
        switch (reply.type) {
          case 'json-error':
            return finish(() => reject(new JsonInputError(reply.code, reply.message, reply.field)));
          case 'refused':
            return finish(() => resolve(reply.failure));
          case 'crashed':
            return finish(() => reject(new Error(`the import check failed: ${reply.message}`)));
          case 'table':
            prepared = reply.prepared;
            expected = reply.events;
            break;
          case 'events':
            // Only the store reads these events, and it writes `json` as it is.
            for (const e of reply.events) prepared!.newTable.events.push({ ...e, event: null });
            await yieldToEventLoop();
            break;
        }
        if (prepared && prepared.newTable.events.length === expected) {
          const done = prepared;
          finish(() => resolve({ ok: true, value: done }));
        }
      });
    });
    // After the messages already received (a worker's last messages arrive before its exit).
    worker.on('error', (error) => {
      queue = queue.then(() => finish(() => reject(error)));
    });
    worker.on('exit', (code) => {
      queue = queue.then(() => finish(() => reject(new Error(`the import check stopped (exit code ${code})`))));
    });
  });
}
