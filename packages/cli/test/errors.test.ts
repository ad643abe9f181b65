import { describe, expect, it } from 'vitest';
import { cli, expectUsageError } from './helpers';

describe('bad input exits with code 2 and one line naming what was wrong', () => {
  const cases: [string, string[], RegExp][] = [
    ['dice other than d10', ['roll', '3d6', 'vs', '2d10'], /"3d6".*d6.*ten-sided/],
    ['a d10 result above 10', ['roll', '[11]', 'vs', '2d10'], /"\[11\]".*11.*1 to 10/],
    ['a d10 result of 0', ['roll', '[7,0]', 'vs', '2d10'], /die #2 is 0/],
    ['a pool of no dice when minimumPool is 1', ['roll', '0d10', 'vs', '2d10'], /"0d10".*minimumPool = 1/],
    ['no given dice when minimumPool is 1', ['roll', '[]+3', 'vs', '2d10'], /"\[\]\+3".*minimumPool/],
    ['"vs" with nothing after it', ['roll', '3d10+4', 'vs'], /nothing after "vs"/],
    ['"vs" with nothing before it', ['roll', 'vs', '2d10'], /nothing before "vs"/],
    ['"vs" twice', ['roll', '3d10', 'vs', '2d10', 'vs', '1d10'], /"vs" appears more than once/],
    ['two pools without "vs"', ['roll', '3d10', '2d10'], /expected "vs"/],
    ['one pool without --unopposed', ['roll', '3d10+4'], /nothing to roll against.*--unopposed/],
    ['no dice at all', ['roll'], /missing the dice/],
    ['garbage', ['roll', 'garbage'], /"garbage".*expected dice like/],
    ['garbage after vs', ['roll', '3d10', 'vs', 'lots'], /reactor's dice.*"lots"/],
    ['a bad modifier', ['roll', '3d10+x', 'vs', '2d10'], /"3d10\+x".*\+x/],
    ['an unknown table option', ['roll', '3d10', 'vs', '2d10', '--option', 'nosuch=1'], /unknown option "nosuch"/],
    ['a bad value for a table option', ['roll', '3d10', 'vs', '2d10', '--option', 'fullTie=maybe'], /option "fullTie" cannot be "maybe"/],
    ['an --option without "="', ['roll', '3d10', 'vs', '2d10', '--option', 'fullTie'], /"fullTie" is not name=value/],
    ['an unknown preset', ['roll', '3d10', 'vs', '2d10', '--rules', 'core-1999'], /--rules.*'core-1999'.*core-2011, srd-v4/],
    ['an unknown flag', ['roll', '3d10', 'vs', '2d10', '--bogus'], /unknown option '--bogus'/],
    ['a flag without its value', ['roll', '3d10', 'vs', '2d10', '--seed'], /--seed.*argument missing/],
    ['a seed that is not a number', ['roll', '3d10', 'vs', '2d10', '--seed', 'abc'], /--seed.*'abc'.*whole number/],
    ['a negative steer', ['roll', '3d10', 'vs', '2d10', '--steer', '-1'], /--steer.*'-1'/],
    ['an unknown difficulty', ['roll', '3d10', '--unopposed', 'extreme'], /unknown difficulty "extreme"/],
    ['a reactor with --unopposed', ['roll', '3d10', 'vs', '2d10', '--unopposed', 'normal'], /--unopposed.*drop "vs 2d10"/],
    ['--gm-dice without --unopposed', ['roll', '3d10', 'vs', '2d10', '--gm-dice', '3,7'], /--gm-dice.*--unopposed/],
    ['--gm-dice with the wrong count', ['roll', '3d10', '--unopposed', 'normal', '--gm-dice', '3,7,9'], /dice\.difficulty: 3 dice were entered, but GM's roll .* takes 2/],
    ['--gm-dice out of range', ['roll', '3d10', '--unopposed', 'normal', '--gm-dice', '3,12'], /GM's dice: die #2 \("12"\)/],
    ['--reactor-pt with --unopposed', ['roll', '3d10', '--unopposed', 'normal', '--reactor-pt', '3'], /--reactor-pt/],
    ['more assistants than the table allows', ['roll', '3d10', 'vs', '2d10', '--assist', 'Ben', '--option', 'maxAssistants=0'], /1 assistants.*maxAssistants/],
    ['odds for dice already rolled', ['odds', '[7,5,2]+3', 'vs', '2d10'], /odds.*"\[7,5,2\]\+3" lists dice already rolled; write "3d10\+3"/],
    ['odds for a reactor\'s dice already rolled', ['odds', '3d10', 'vs', '[8,6]+2'], /reactor's "\[8,6\]\+2"/],
    ['odds for a d6', ['odds', '3d6', 'vs', '2d10'], /"3d6".*ten-sided/],
    ['odds with nothing after "vs"', ['odds', '3d10', 'vs'], /nothing after "vs"/],
    ['odds for no dice when minimumPool is 1', ['odds', '0d10', 'vs', '2d10'], /"0d10".*minimumPool/],
    ['odds with an unknown difficulty', ['odds', '3d10', '--unopposed', 'hard'], /unknown difficulty "hard"/],
    ['odds under an unknown preset', ['odds', '3d10', 'vs', '2d10', '--rules', 'v5'], /'v5'/],
    ['odds with an unknown table option', ['odds', '3d10', 'vs', '2d10', '--option', 'luck=7'], /unknown option "luck"/],
    ['a --plot file that cannot be written', ['odds', '3d10', 'vs', '2d10', '--plot', '/nonexistent-dir/odds.svg'], /--plot: cannot write "\/nonexistent-dir\/odds.svg": no such directory/],
    ['--max-dice out of range', ['odds', '3d10', 'vs', '2d10', '--table', '--max-dice', '99'], /--max-dice.*'99'.*1 to 20/],
    ['an unknown command', ['rol', '3d10'], /unknown command 'rol'.*Did you mean roll\?/],
    ['an argument to demo', ['demo', 'now'], /too many arguments for 'demo'/],
  ];
  for (const [what, argv, names] of cases) {
    it(what, async () => {
      await expectUsageError(argv, names);
    });
  }
});

describe('help and version', () => {
  it('--help prints the commands on stdout and exits 0', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Usage: personae/);
    for (const command of ['roll', 'odds', 'demo']) expect(r.stdout).toMatch(new RegExp(`^\\s+${command} `, 'm'));
    expect(r.stdout).toContain('Exit codes');
  });

  it('no arguments prints the help on stderr and exits 2', async () => {
    const r = await cli();
    expect(r.code).toBe(2);
    expect(r.exitCodeSet).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Usage: personae/);
    for (const command of ['roll', 'odds', 'sheet', 'demo']) expect(r.stderr).toMatch(new RegExp(`^\\s+${command} `, 'm'));
  });

  it('help for one command lists its flags', async () => {
    const r = await cli('help', 'roll');
    expect(r.code).toBe(0);
    for (const flag of ['--seed', '--rules', '--option', '--assist', '--steer', '--actor-pt', '--reactor-pt', '--unopposed', '--json']) expect(r.stdout).toContain(flag);
    const again = await cli('roll', '--help');
    expect(again.stdout).toBe(r.stdout);
    const odds = await cli('help', 'odds');
    for (const flag of ['--table', '--plot', '--max-dice', '--unopposed', '--json']) expect(odds.stdout).toContain(flag);
  });

  it('--version prints the version', async () => {
    const r = await cli('--version');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
