// Slurm's command lines and answers: the sbatch line a launch submits, and the job states squeue, sacct and
// scontrol report. Pure: the Slurm place runs them.
import type { RunState, SlurmJob, SlurmKnobs } from '../../shared/launch';
import { STDERR, STDOUT } from './place';
import { withEnv } from './host-scripts';

/** Words as a POSIX shell splits them: blanks outside quotes, '...' and "..." kept whole, \ escaping. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i] as string;
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else {
      word = (word ?? '') + (c === '\\' && i + 1 < text.length ? (text[++i] as string) : c);
    }
  }
  if (quote) throw new Error(`unclosed ${quote} in sbatch arguments ${JSON.stringify(text)}`);
  if (word !== null) words.push(word);
  return words;
}

/** sbatch's options (its man page, Slurm 22.05): `=` takes an argument, `?` may take one joined to it. */
const LONG = parseOptions(
  'account= acctg-freq= array= batch= bb= bbf= begin= chdir= cluster-constraint= clusters= comment= constraint= container= contiguous core-spec= cores-per-socket= cpu-freq= cpus-per-gpu= cpus-per-task= deadline= delay-boot= dependency= distribution= error= exclude= exclusive? export= export-file= extra-node-info= get-user-env? gid= gpu-bind= gpu-freq= gpus= gpus-per-node= gpus-per-socket= gpus-per-task= gres= gres-flags= help hint= hold ignore-pbs input= job-name= kill-on-invalid-dep= licenses= mail-type= mail-user= mcs-label= mem= mem-bind= mem-per-cpu= mem-per-gpu= mincpus= network= nice? no-kill? no-requeue nodefile= nodelist= nodes= ntasks= ntasks-per-core= ntasks-per-gpu= ntasks-per-node= ntasks-per-socket= open-mode= output= overcommit oversubscribe parsable partition= power= prefer= priority= profile= propagate? qos= quiet reboot requeue reservation= signal= sockets-per-node= spread-job switches= test-only thread-spec= threads-per-core= time= time-min= tmp= uid= usage use-min-nodes verbose version wait wait-all-nodes= wckey= wrap=',
);
const SHORT = parseOptions('A= a= b= D= M= C= S= c= d= m= e= x= B= G= h H i= J= L= k? F= w= N= n= o= O s p= q= Q t= v V W');
/** What Cellwatch sets itself: the job's name, output, folder, environment and command. */
const OWN_LONG = ['chdir', 'error', 'export', 'export-file', 'job-name', 'open-mode', 'output', 'parsable', 'wrap'];
const OWN_SHORT = new Set(['D', 'e', 'J', 'o']);

function parseOptions(list: string): Map<string, 'required' | 'optional' | 'none'> {
  return new Map(list.split(' ').map((o) => [o.replace(/[=?]$/, ''), o.endsWith('=') ? 'required' : o.endsWith('?') ? 'optional' : 'none']));
}

/**
 * Refuses extra sbatch words that would set what Cellwatch sets, read as sbatch's getopt_long reads them:
 * a long option by any prefix of its name (`--ou=x` is --output), short options bundled (`-He` is -H -e),
 * an option's argument in the next word skipped. Words that are not options would be taken for the script.
 */
function checkExtra(words: string[]): void {
  const own = (word: string) => new Error(`sbatch argument ${word} is Cellwatch's own: it names the job, its output, folder, environment and command`);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--' || !word.startsWith('-') || word === '-') throw new Error(`sbatch argument ${word} is not an option: Cellwatch gives the command itself (--wrap)`);
    if (word.startsWith('--')) {
      const name = word.slice(2).split('=')[0] as string;
      // Any prefix of an own option is refused, ambiguous or not: a newer sbatch may resolve it to that one.
      if (OWN_LONG.some((o) => o.startsWith(name))) throw own(word);
      const matches = LONG.has(name) ? [name] : [...LONG.keys()].filter((o) => o.startsWith(name));
      if (matches.length === 1 && LONG.get(matches[0] as string) === 'required' && !word.includes('=')) i++;
      continue;
    }
    for (let c = 1; c < word.length; c++) {
      const flag = word[c] as string;
      if (OWN_SHORT.has(flag)) throw own(word);
      const kind = SHORT.get(flag);
      if (kind === 'optional') break;
      if (kind === 'required') {
        if (c === word.length - 1) i++;
        break;
      }
    }
  }
}

export interface Submission {
  name: string;
  cell: string;
  cwd: string;
  command: string[];
  env: Record<string, string>;
}

/**
 * The exact sbatch line: the job named after the run, its output appended to the cell's logs, the
 * profile's command (exec'd, so Slurm's signals reach it) in --wrap.
 */
export function sbatchLine(job: Submission, knobs: SlurmKnobs, profileNeedsGpu: boolean): string[] {
  const gpus = knobs.gpus ?? (profileNeedsGpu ? 1 : 0);
  if (!Number.isInteger(gpus) || gpus < 0) throw new Error(`GPUs for Slurm must be a whole number of at least 0, not ${gpus}`);
  const extra = splitWords(knobs.extra ?? '');
  checkExtra(extra);
  return [
    'sbatch',
    '--parsable',
    '--job-name',
    job.name,
    '--output',
    `${job.cell}/${STDOUT}`,
    '--error',
    `${job.cell}/${STDERR}`,
    '--open-mode=append',
    '--chdir',
    job.cwd,
    ...(gpus > 0 ? [`--gres=gpu:${gpus}`] : []),
    ...(knobs.time?.trim() ? ['--time', knobs.time.trim()] : []),
    ...(knobs.partition?.trim() ? ['--partition', knobs.partition.trim()] : []),
    ...extra,
    '--wrap',
    `exec ${withEnv(job.command, job.env)}`,
  ];
}

/** The job id `sbatch --parsable` printed (`123` or `123;cluster`). */
export function parseJobId(stdout: string): string {
  const id = /^(\d+)(;\S+)?\s*$/m.exec(stdout.trim())?.[1];
  if (!id) throw new Error(`sbatch printed no job id: ${JSON.stringify(stdout.slice(0, 200))}`);
  return id;
}

export const SQUEUE_FORMAT = '%i|%T|%r|%N';
export const SACCT_FIELDS = 'JobIDRaw,State,ExitCode,NodeList';

const orNull = (text: string | undefined) => (text && text !== '(null)' && text !== 'None' && text !== 'N/A' ? text : null);
/** `3:0` (exit code 3, no signal) as 3. */
const exitOf = (text: string | undefined) => (text && /^\d+:\d+$/.test(text) ? Number(text.split(':')[0]) : null);

/** `squeue -h -o '%i|%T|%r|%N'`: the jobs still queued or running. */
export function parseSqueue(stdout: string): SlurmJob[] {
  return stdout
    .split('\n')
    .map((line) => line.trim().split('|'))
    .filter((f) => f.length >= 4 && /^\d+$/.test(f[0] as string))
    .map(([id, state, reason, node]) => ({ id: id as string, state: state as string, reason: state === 'PENDING' ? orNull(reason) : null, node: orNull(node), exitCode: null }));
}

/** `sacct -n -P -X -o JobIDRaw,State,ExitCode,NodeList`: ended jobs, as accounting kept them. */
export function parseSacct(stdout: string): SlurmJob[] {
  return stdout
    .split('\n')
    .map((line) => line.trim().split('|'))
    .filter((f) => f.length >= 4 && /^\d+$/.test(f[0] as string))
    .map(([id, state, exit, node]) => ({ id: id as string, state: (state as string).split(' ')[0] as string, reason: null, node: orNull(node), exitCode: exitOf(exit) }));
}

/** `scontrol -o show job ID` lines: what slurmctld still remembers of a job without accounting (MinJobAge). */
export function parseScontrol(stdout: string): SlurmJob[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('JobId='))
    .map((line) => {
      const field = (key: string) => new RegExp(`(?:^| )${key}=(\\S*)`).exec(line)?.[1];
      const state = field('JobState') ?? 'UNKNOWN';
      return { id: field('JobId') as string, state, reason: state === 'PENDING' ? orNull(field('Reason')) : null, node: orNull(field('NodeList')), exitCode: exitOf(field('ExitCode')) };
    });
}

const WAITING = new Set(['PENDING', 'CONFIGURING', 'REQUEUED', 'REQUEUE_HOLD', 'REQUEUE_FED', 'RESV_DEL_HOLD']);
const MOVING = new Set(['RUNNING', 'COMPLETING', 'SUSPENDED', 'STAGE_OUT', 'SIGNALING', 'RESIZING', 'STOPPED']);

/** The run's state from its job's: a cancelled job was stopped, every other unhappy end crashed. */
export function runStateOfJob(state: string): RunState {
  if (WAITING.has(state)) return 'pending';
  if (MOVING.has(state)) return 'running';
  if (state === 'COMPLETED') return 'exited';
  if (state === 'CANCELLED') return 'stopped';
  return 'crashed';
}
