import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { runCli } from './run';
import { capture } from './testing';


describe('cellwatch CLI', () => {
  it('prints its version', async () => {
    const { io, out } = capture();
    expect(await runCli(['--version'], io)).toBe(0);
    expect(out).toEqual([pkg.version]);
  });

  it('prints help that names serve', async () => {
    const { io, out } = capture();
    expect(await runCli(['--help'], io)).toBe(0);
    expect(out.join('\n')).toMatch(/serve \[--port N\]/);
  });

  it('exits 2 naming an unknown command', async () => {
    const { io, err } = capture();
    expect(await runCli(['frobnicate'], io)).toBe(2);
    expect(err[0]).toContain('unknown command "frobnicate"');
  });

  it('exits 2 on a bad port, naming it', async () => {
    const { io, err } = capture();
    expect(await runCli(['serve', '--port', 'abc'], io)).toBe(2);
    expect(err[0]).toContain('--port must be a number');
  });

  it('exits 2 on an unknown option', async () => {
    const { io, err } = capture();
    expect(await runCli(['serve', '--colour'], io)).toBe(2);
    expect(err[0]).toContain("'--colour'");
  });
});
