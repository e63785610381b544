// What a launch needs where it starts, as the target's sh checks it (here this machine's: the same script).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../runners/testing';
import { lacking, needsScript } from './needs';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

const lacks = (command: string[], cwd: string) => lacking(spawnSync('sh', ['-c', needsScript({ command, cwd })], { encoding: 'utf8' }).stdout);

describe('what a run needs where it starts', () => {
  it("names each thing missing: the script in the checkout, the checkout itself, the program on the PATH", () => {
    const checkout = join(tmp.path, 'harness');
    mkdirSync(join(checkout, 'coding-agent'), { recursive: true });
    const command = ['sh', 'coding-agent/stdrun.py', 'run', 'ui_x', '--nonstd'];
    expect(lacks(command, checkout)).toEqual([`no coding-agent/stdrun.py in ${checkout}`]);
    // The coding-agent folder given as the checkout: the path the run would take is doubled, and said so.
    expect(lacks(command, join(checkout, 'coding-agent'))).toEqual([`no coding-agent/stdrun.py in ${join(checkout, 'coding-agent')}`]);
    expect(lacks(command, join(tmp.path, 'nowhere'))).toEqual([`no folder ${join(tmp.path, 'nowhere')}, where coding-agent/stdrun.py is run from`]);
    writeFileSync(join(checkout, 'coding-agent', 'stdrun.py'), '');
    expect(lacks(command, checkout)).toEqual([]);
    expect(lacks(['python-that-is-not-there', 'coding-agent/stdrun.py'], checkout)).toEqual(['no python-that-is-not-there on the PATH']);
  });

  it('needs no working folder for a script named by its whole path (the launch makes the folder), but the script itself', () => {
    const cli = join(tmp.path, 'cli.mjs');
    expect(lacks([process.execPath, cli, 'demo'], join(tmp.path, 'ui-runs'))).toEqual([`no script ${cli}`]);
    writeFileSync(cli, '');
    expect(lacks([process.execPath, cli, 'demo'], join(tmp.path, 'ui-runs'))).toEqual([]);
    expect(lacks(['/no/such/node', cli], tmp.path)).toEqual(['no program /no/such/node']);
    // A shell's code is no script (the custom profile's `sh -c "python train.py"`).
    expect(lacks(['sh', '-c', 'python train.py'], join(tmp.path, 'nowhere'))).toEqual([]);
  });
});
