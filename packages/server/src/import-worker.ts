import { parentPort, workerData } from 'node:worker_threads';
// The rulesets a server can host register themselves here too, as in main.ts; the host names which
// of them its tables may play (`rulesets` below).
import '@personae/rules';
import '@personae/d100';
import '@personae/lucidity';
import { prepareImport } from './export';
import { JsonInputError, parseClientJsonInSlices } from './json';
import { registryDomains } from './rulesets';
import { TimeSlice } from './yield';
import type { ImportReply, ImportRequest } from './import-job';

/**
 * A worker thread that checks one import (see import-job.ts): parses the file, checks its layout and
 * folds every event, then sends the prepared table back with each event as its JSON text, in parts.
 */
const EVENTS_PER_PART = 500;

async function run(request: ImportRequest): Promise<void> {
  const send = (reply: ImportReply) => parentPort!.postMessage(reply);
  let raw: unknown;
  try {
    // Nothing else runs on this thread: no need to yield while parsing.
    raw = !/\S/.test(request.text) ? undefined : await parseClientJsonInSlices(request.text, 'events', request.maxDepth, new TimeSlice(Infinity));
  } catch (error) {
    if (!(error instanceof JsonInputError)) throw error;
    send({ type: 'json-error', code: error.code, message: error.message, ...(error.field !== undefined ? { field: error.field } : {}) });
    return;
  }
  const prepared = await prepareImport(raw, registryDomains(request.rulesets));
  if (!prepared.ok) {
    send({ type: 'refused', failure: prepared });
    return;
  }
  const { newTable, ...secrets } = prepared.value;
  send({ type: 'table', prepared: { ...secrets, newTable: { ...newTable, events: [] } }, events: newTable.events.length });
  for (let from = 0; from < newTable.events.length; from += EVENTS_PER_PART) {
    const part = newTable.events.slice(from, from + EVENTS_PER_PART).map(({ event, ...e }) => ({ ...e, json: JSON.stringify(event) }));
    send({ type: 'events', events: part });
  }
}

run(workerData as ImportRequest).catch((error: unknown) => {
  parentPort!.postMessage({ type: 'crashed', message: (error as Error)?.message ?? String(error) } satisfies ImportReply);
});
