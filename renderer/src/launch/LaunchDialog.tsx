import { Fragment, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { shellArg } from '../../../shared/quote';
import { parseTarget, targetHost, uiName, type LaunchPlan, type LaunchRequest, type ProfileInfo, type SlurmKnobs } from '../../../shared/launch';
import { useApp, useData, useFeed } from '../context';
import { isLocal, LOCAL } from '../../../shared/address';
import { asError } from '../../../shared/errors';
import { CallFailed } from '../CallFailed';

const gib = (mib: number | null) => (mib === null ? '?' : (mib / 1024).toFixed(1));
const MIN_FREE_MIB = 6000;

/** Pick a profile and its knobs, see the exact command, launch a ui_ run and open its cell. */
export function LaunchDialog({ onClose }: { onClose: () => void }) {
  const { launch: calls } = useData();
  const openCell = useApp((s) => s.openCell);
  const setView = useApp((s) => s.setView);
  const say = useApp((s) => s.say);
  // useShallow: a selector returning a new [] each render makes React re-render without end (error #185).
  const hosts = useApp(useShallow((s) => s.hosts.map((h) => h.alias)));
  const [target, setTarget] = useState(LOCAL);
  const [slurm, setSlurm] = useState<SlurmKnobs>({});
  const kind = parseTarget(target).kind;
  const host = kind === 'ssh' ? target : null;
  const gpuStatus = useFeed((data) => data.gpuOf(host ?? LOCAL)).value;
  const gpus = useMemo(() => gpuStatus?.history.at(-1)?.gpus ?? [], [gpuStatus]);
  const [profiles, setProfiles] = useState<ProfileInfo[]>([]);
  /** The target the profiles' defaults were filled for: until they arrive for a new one, nothing is sent. */
  const [profilesFor, setProfilesFor] = useState<string | null>(null);
  const [profileName, setProfileName] = useState('demo');
  const [values, setValues] = useState<Record<string, string>>({});
  const [name, setName] = useState('');
  const [gpu, setGpu] = useState<number | undefined>(undefined);
  const [override, setOverride] = useState(false);
  const [plan, setPlan] = useState<LaunchPlan | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => dialog.current?.showModal(), []);
  useEffect(() => setPlan(null), [target]);
  // A host asked before its connection came up (or while it dropped) is asked again once it is connected.
  const targetConnected = useApp((s) => {
    const at = targetHost(parseTarget(target));
    return isLocal(at) || s.hosts.some((h) => h.alias === at && h.state === 'connected');
  });
  // Knob defaults as the target fills them (a host's own home and data folder). Only the answer for the
  // target shown now counts: one for the target picked before, arriving late, is dropped.
  useEffect(() => {
    let current = true;
    calls.listProfiles(target).then(
      (list) => current && (setProfiles(list), setProfilesFor(target), setError(null)),
      (e: unknown) => current && setError(asError(e)),
    );
    return () => {
      current = false;
    };
  }, [calls, target, targetConnected]);
  const profile = profiles.find((p) => p.name === profileName);
  // Refetched per target: the knobs start over only when what they hold changed.
  const profileKey = profile ? JSON.stringify(profile) : '';
  useEffect(() => {
    if (profile) setValues(Object.fromEntries(profile.knobs.map((k) => [k.key, k.default])));
    setPlan(null);
    setGpu(undefined);
  }, [profileKey]);
  // The GPU with the most free memory is chosen until the user picks another.
  const bestGpu = useMemo(() => [...gpus].sort((a, b) => (b.freeMib ?? 0) - (a.freeMib ?? 0))[0]?.index, [gpus]);
  const chosenGpu = gpu ?? bestGpu;

  const request = (): LaunchRequest => ({
    profile: profileName,
    values,
    ...(name ? { label: name } : {}),
    ...(profile?.gpu && kind !== 'slurm' && chosenGpu !== undefined ? { gpu: chosenGpu } : {}),
    override,
    target,
    ...(kind === 'slurm' ? { slurm } : {}),
  });
  // The request the dry run showed: launched as it is, it keeps the name shown (its time stamp included).
  const [planned, setPlanned] = useState<string | null>(null);
  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
    } catch (e) {
      setError(asError(e));
    }
    setBusy(false);
  };
  const dryRun = () =>
    act(async () => {
      setPlan(await calls.planLaunch(request()));
      setPlanned(JSON.stringify(request()));
    });
  const launch = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const asPlanned = plan && planned === JSON.stringify(request()) ? { name: plan.name } : {};
      const launched = await calls.launchRun({ ...request(), ...asPlanned });
      onClose();
      // Started, whatever came after: said, and the run shown, never offered to launch again.
      if (launched.problem) say(`${launched.run.name} ${launched.problem}`);
      // No cell yet (a job waiting in Slurm's queue, a run that ended at once): the run is shown in Runs.
      if (launched.cellId) openCell(launched.cellId);
      else setView('runs');
    });
  };

  return (
    <dialog ref={dialog} className="launch-dialog" aria-label="Launch a UI run" onClose={onClose} onCancel={onClose}>
      <form onSubmit={launch}>
        <h1>Launch a UI run</h1>
        <label className="field">
          <span>Profile</span>
          <select value={profileName} onChange={(e) => setProfileName(e.target.value)} aria-label="Profile">
            {profiles.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        {profile && <p className="muted">{profile.description}</p>}
        <label className="field">
          <span>Where</span>
          <select value={target} onChange={(e) => setTarget(e.target.value)} aria-label="Target" title="Where the run starts: this machine, an SSH host of the Hosts list, or a Slurm cluster">
            <option value={LOCAL}>This machine</option>
            {hosts.map((alias) => (
              <option key={alias} value={alias}>
                SSH host {alias}
              </option>
            ))}
            <option value="slurm">Slurm (sbatch here)</option>
            {hosts.map((alias) => (
              <option key={`slurm@${alias}`} value={`slurm@${alias}`}>
                Slurm via {alias}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Label</span>
          <input
            aria-label="Run label"
            title="Ends the run's name in place of its time stamp; the rest of the name comes from the profile"
            placeholder="time stamp, or a word of yours"
            value={name}
            onChange={(e) => setName(uiName(e.target.value).slice(3).replace(/^ui_/, ''))}
          />
        </label>
        {profile?.knobs.map((knob) => (
          <label key={knob.key} className="field">
            <span>{knob.label}</span>
            {knob.choices ? (
              <select aria-label={knob.label} value={values[knob.key] ?? ''} onChange={(e) => setValues({ ...values, [knob.key]: e.target.value })}>
                {knob.choices.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            ) : (
              <input aria-label={knob.label} value={values[knob.key] ?? ''} onChange={(e) => setValues({ ...values, [knob.key]: e.target.value })} spellCheck={false} />
            )}
          </label>
        ))}
        {kind === 'slurm' && (
          <fieldset className="slurm-knobs">
            <legend>Slurm</legend>
            <SlurmField label="GPUs (--gres=gpu:N)" value={slurm.gpus === undefined ? '' : String(slurm.gpus)} placeholder={profile?.gpu ? '1' : '0'} onChange={(v) => setSlurm({ ...slurm, gpus: v === '' ? undefined : Number(v) })} />
            <SlurmField label="Time (--time)" value={slurm.time ?? ''} placeholder="the partition's default" onChange={(v) => setSlurm({ ...slurm, time: v })} />
            <SlurmField label="Partition" value={slurm.partition ?? ''} placeholder="the default partition" onChange={(v) => setSlurm({ ...slurm, partition: v })} />
            <SlurmField label="More sbatch arguments" value={slurm.extra ?? ''} placeholder="--mem=32G --account=lab" onChange={(v) => setSlurm({ ...slurm, extra: v })} />
          </fieldset>
        )}
        {profile?.gpu && kind !== 'slurm' && (
          <fieldset className="gpu-picker">
            <legend>GPU{host ? ` on ${host}` : ''}</legend>
            {gpus.length === 0 && <p className="muted">No GPU sample: {host ? `${host} has not answered nvidia-smi` : 'this machine has no nvidia-smi'}.</p>}
            {gpus.map((g) => (
              <label key={g.index} className={(g.freeMib ?? 0) < MIN_FREE_MIB ? 'tone-fail' : undefined}>
                <input type="radio" name="gpu" checked={chosenGpu === g.index} onChange={() => setGpu(g.index)} aria-label={`GPU ${g.index}`} />
                GPU{g.index} {g.name} · {gib(g.freeMib)} GiB free of {gib(g.totalMib)}
              </label>
            ))}
            <label>
              <input type="checkbox" checked={override} onChange={(e) => setOverride(e.target.checked)} /> launch below {MIN_FREE_MIB} MiB free, or without a GPU
            </label>
          </fieldset>
        )}
        {plan && (
          <div className="plan" aria-label="Dry run">
            <code>
              {/* Each argument wraps as one piece: `--nonstd` is never cut after its first hyphen. */}
              {(plan.submit ?? plan.command).map((arg, i) => (
                <Fragment key={i}>
                  {i > 0 && ' '}
                  <span className="arg">{shellArg(arg)}</span>
                </Fragment>
              ))}
            </code>
            <div className="muted">
              name {plan.name} · {isLocal(plan.target) ? 'here' : `on ${plan.target}`} · cell {plan.cell} · in {plan.cwd}
              {plan.gpu !== null && ` · CUDA_VISIBLE_DEVICES=${plan.gpu}`}
            </div>
            {plan.refused && <div className="tone-fail">Would be refused: {plan.refused}</div>}
          </div>
        )}
        {error && <CallFailed what="The launch" error={error} />}
        {/* A host's answer can take a while (its connection still opening): the buttons wait for it, and say so. */}
        {!error && profilesFor !== target && !isLocal(targetHost(parseTarget(target))) && (
          <div className="muted" role="status">
            Asking {targetHost(parseTarget(target))} for its home and the profiles' defaults…
          </div>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" onClick={() => void dryRun()} disabled={busy || !profile || profilesFor !== target}>
            Dry run
          </button>
          <button type="submit" disabled={busy || !profile || profilesFor !== target}>
            {busy ? 'Launching…' : 'Launch'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function SlurmField({ label, value, placeholder, onChange }: { label: string; value: string; placeholder: string; onChange: (value: string) => void }) {
  return (
    <label className="field">
      <span>{label}</span>
      <input aria-label={label} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} spellCheck={false} />
    </label>
  );
}

