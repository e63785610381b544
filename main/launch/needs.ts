// What a launch needs where it starts, checked by its dry run and before it starts: the command's program
// on the target's PATH (or at its path), and the script it runs (its profile's runner script) in its
// working folder. Each one missing is a refusal of its own, naming the path as the target sees it.
import { posix } from 'node:path';
import { shellQuote } from '../../shared/quote';
import type { RenderedRun } from './profiles';

const q = (text: string) => shellQuote([text]);

/** An argument that is a script the program runs: a file by its extension. */
const SCRIPT = /\.(py|sh|bash|js|mjs|cjs|ts|rb|pl|R|jl)$/;

/** The script a run's command runs (as the command names it); null when it names none. */
export const scriptOf = (command: string[]): string | null => command.slice(1).find((arg) => !arg.startsWith('-') && !/\s/.test(arg) && SCRIPT.test(arg)) ?? null;

/**
 * A POSIX sh script that prints one line per thing the run lacks on its target, nothing when it lacks none.
 * Its working folder is made by the launch, so it is only needed where a script is found from it.
 */
export function needsScript(run: Pick<RenderedRun, 'command' | 'cwd'>): string {
  const program = run.command[0] as string;
  const script = scriptOf(run.command);
  const lines = [
    program.includes('/')
      ? `[ -x ${q(program)} ] || echo ${q(`no program ${program}`)}`
      : `command -v ${q(program)} >/dev/null 2>&1 || echo ${q(`no ${program} on the PATH`)}`,
  ];
  if (script && posix.isAbsolute(script)) lines.push(`[ -f ${q(script)} ] || echo ${q(`no script ${script}`)}`);
  else if (script) {
    lines.push(`if [ ! -d ${q(run.cwd)} ]; then echo ${q(`no folder ${run.cwd}, where ${script} is run from`)}`);
    lines.push(`elif [ ! -f ${q(posix.join(run.cwd, script))} ]; then echo ${q(`no ${script} in ${run.cwd}`)}; fi`);
  }
  return lines.join('\n');
}

/** The lines `needsScript` printed: what the run lacks. */
export const lacking = (stdout: string) => stdout.split('\n').map((l) => l.trim()).filter(Boolean);
