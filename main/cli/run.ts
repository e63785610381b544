import { APP_VERSION } from '../version';
import { UsageError, type Io } from './io';
import { CompareError, NotFoundError } from '../../shared/errors';

const INTRO = `Cellwatch ${APP_VERSION}: watch coding agents' benchmark runs.

Usage: cellwatch <command> [options]

Commands:
  serve      the app in a browser (serve mode)
  status     budgets, states and success rates of cells
  board      the boards: cells where their benchmark puts them, and which differences are real
  episodes   a cell's pairable units
  audit      what a transcript names outside the sandbox
  tail       a cell's events as they arrive
  alerts     alerts as they happen (finished, failed, stalled, ...)
  mcnemar    are two runs really different? (exact paired test)
  gpu        GPU memory, CPU, memory and disks of this machine
  launch     start a UI run of a runner profile, here, on an SSH host or on Slurm
  runs       the launched runs on every target; stop, drain, resume: stop, drain or resume one
  record     policy versions side by side on one seed, to mp4
  demo       write the built-in demo runs

Options:
  --help      this text; cellwatch <command> --help for a command's own
  --version   the version`;

/** A command and its help, loaded when it runs: `status` does not pay for the server's, SSH's or the recorder's modules. */
interface Command {
  run: (argv: string[], io: Io, stop?: AbortSignal) => Promise<number>;
  help: string;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => import('./serve').then((m) => ({ run: m.serve, help: m.SERVE_HELP })),
  status: async () => import('./status').then((m) => ({ run: m.status, help: m.STATUS_HELP })),
  board: async () => import('./board').then((m) => ({ run: m.board, help: m.BOARD_HELP })),
  episodes: async () => import('./episodes').then((m) => ({ run: m.episodes, help: m.EPISODES_HELP })),
  audit: async () => import('./audit').then((m) => ({ run: m.audit, help: m.AUDIT_HELP })),
  tail: async () => import('./tail').then((m) => ({ run: m.tail, help: m.TAIL_HELP })),
  alerts: async () => import('./alerts').then((m) => ({ run: m.alerts, help: m.ALERTS_HELP })),
  mcnemar: async () => import('./mcnemar').then((m) => ({ run: m.mcnemar, help: m.MCNEMAR_HELP })),
  gpu: async () => import('./gpu').then((m) => ({ run: m.gpu, help: m.GPU_HELP })),
  launch: async () => import('./launch').then((m) => ({ run: m.launch, help: m.LAUNCH_HELP })),
  runs: async () => import('./runs').then((m) => ({ run: m.runs, help: m.RUNS_HELP })),
  stop: async () => import('./runs').then((m) => ({ run: m.stop, help: m.RUNS_HELP })),
  drain: async () => import('./runs').then((m) => ({ run: m.drain, help: m.RUNS_HELP })),
  resume: async () => import('./runs').then((m) => ({ run: m.resume, help: m.RUNS_HELP })),
  record: async () => import('./record').then((m) => ({ run: m.record, help: m.RECORD_HELP })),
  demo: async () => import('./demo').then((m) => ({ run: m.demo, help: m.DEMO_HELP })),
};

/** The overview and every command's help, each once (runs, stop, drain and resume share theirs). */
async function fullHelp(): Promise<string> {
  const helps = await Promise.all(Object.values(COMMANDS).map(async (load) => (await load()).help));
  return [INTRO, ...new Set(helps)].join('\n\n');
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** Whether the command's arguments ask for its help (before any `--`, after which all are positional). */
function asksHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some(isHelp);
}

export async function runCli(argv: string[], io: Io, stop?: AbortSignal): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || isHelp(first) || first === 'help') {
    io.out(await fullHelp());
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    io.out(APP_VERSION);
    return 0;
  }
  const load = COMMANDS[first];
  if (!load) {
    io.err(`cellwatch: unknown command ${JSON.stringify(first)}. Run cellwatch --help for the list.`);
    return 2;
  }
  try {
    const command = await load();
    if (asksHelp(rest)) {
      io.out(command.help);
      return 0;
    }
    return await command.run(rest, io, stop);
  } catch (error) {
    const usage = error instanceof UsageError || error instanceof NotFoundError || error instanceof CompareError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.err(`cellwatch ${first}: ${(error as Error).message}`);
    return usage ? 2 : 1;
  }
}
