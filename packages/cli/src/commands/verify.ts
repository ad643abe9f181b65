import type { Command } from 'commander';
import { verifyRoll } from '@personae/core';
import { toJson } from '../format/json.js';
import { CliError, EXIT_OK, writeLines, type CliIo } from '../io.js';

interface VerifyFlags {
  commitment: string;
  dice: string;
  salt: string;
  json?: boolean;
}

function diceList(text: string): number[] {
  const words = text.split(',').map((w) => w.trim());
  const dice = words.map(Number);
  const bad = words.find((w, i) => w === '' || !Number.isInteger(dice[i]) || dice[i]! < 1);
  if (bad !== undefined) throw new CliError(`--dice: "${bad}" is not a die result (a whole number from 1), in "${text}"`);
  return dice;
}

/**
 * `personae verify`: checks a revealed secret roll against the commitment the table published when
 * the GM rolled it (the SHA-256 of the salt and the dice in the order drawn).
 */
export function registerVerifyCommand(program: Command, io: CliIo): void {
  program
    .command('verify')
    .summary('check a revealed secret roll against the commitment published when it was rolled')
    .description(
      'When the GM rolls in secret, the table publishes a commitment (a SHA-256 hash) at once; when the roll\n' +
        'is revealed, anyone can check that the dice and the salt shown are the ones committed to.',
    )
    .requiredOption('--commitment <hash>', 'the commitment published in the log (64 hex digits)')
    .requiredOption('--dice <list>', 'the revealed dice in the order drawn, e.g. 7,3,10')
    .requiredOption('--salt <hex>', 'the revealed salt')
    .option('--json', 'print one JSON object')
    .action((flags: VerifyFlags) => {
      if (!/^[0-9a-fA-F]{64}$/.test(flags.commitment)) throw new CliError(`--commitment: "${flags.commitment}" is not a SHA-256 hash (64 hex digits)`);
      const dice = diceList(flags.dice);
      const result = verifyRoll({ hash: flags.commitment }, { dice, salt: flags.salt.toLowerCase() });
      if (!result.ok && result.reason === 'malformed') throw new CliError(result.message);
      if (flags.json) io.stdout(toJson({ verified: result.ok, dice, ...(result.ok ? {} : { reason: result.message }) }));
      else writeLines(io.stdout, [result.ok ? `verified: the dice ${dice.join(', ')} are the ones committed to` : `NOT verified: ${result.message}`]);
      io.setExitCode(result.ok ? EXIT_OK : 1);
    });
}
