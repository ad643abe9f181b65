import { run } from './main';
import { processIo } from './io';

// The `personae` command as the launcher (bin/personae.mjs) and the bundle run it.
void run(process.argv.slice(2), processIo());
