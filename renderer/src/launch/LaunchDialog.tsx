import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { uiName, type LaunchPlan, type LaunchRequest, type ProfileInfo } from '../../../shared/launch';
import { useApp, useTransport } from '../context';

const gib = (mib: number | null) => (mib === null ? '?' : (mib / 1024).toFixed(1));
const MIN_FREE_MIB = 6000;

/** Pick a profile and its knobs, see the exact command, launch a ui_ run and open its cell. */
export function LaunchDialog({ onClose }: { onClose: () => void }) {
  const transport = useTransport();
  const openCell = useApp((s) => s.openCell);
  // useShallow: a selector returning a new [] each render makes React re-render without end (error #185).
  const gpus = useApp(useShallow((s) => s.gpu?.history.at(-1)?.gpus ?? []));
  const [profiles, setProfiles] = useState<ProfileInfo[]>([]);
  const [profileName, setProfileName] = useState('demo');
  const [values, setValues] = useState<Record<string, string>>({});
  const [name, setName] = useState('');
  const [gpu, setGpu] = useState<number | undefined>(undefined);
  const [override, setOverride] = useState(false);
  const [plan, setPlan] = useState<LaunchPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
    transport.call('listProfiles').then(setProfiles, (e: Error) => setError(e.message));
  }, [transport]);
  const profile = profiles.find((p) => p.name === profileName);
  useEffect(() => {
    if (profile) setValues(Object.fromEntries(profile.knobs.map((k) => [k.key, k.default])));
    setPlan(null);
  }, [profile]);
  // The GPU with the most free memory is chosen until the user picks another.
  const bestGpu = useMemo(() => [...gpus].sort((a, b) => (b.freeMib ?? 0) - (a.freeMib ?? 0))[0]?.index, [gpus]);
  const chosenGpu = gpu ?? bestGpu;

  const request = (): LaunchRequest => ({
    profile: profileName,
    values,
    ...(name ? { label: name } : {}),
    ...(profile?.gpu && chosenGpu !== undefined ? { gpu: chosenGpu } : {}),
    override,
  });
  // The request the dry run showed: launched as it is, it keeps the name shown (its time stamp included).
  const [planned, setPlanned] = useState<string | null>(null);
  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
    setBusy(false);
  };
  const dryRun = () =>
    act(async () => {
      setPlan(await transport.call('planLaunch', request()));
      setPlanned(JSON.stringify(request()));
    });
  const launch = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const asPlanned = plan && planned === JSON.stringify(request()) ? { name: plan.name } : {};
      const launched = await transport.call('launchRun', { ...request(), ...asPlanned });
      onClose();
      if (launched.cellId) openCell(launched.cellId);
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
        {profile?.gpu && (
          <fieldset className="gpu-picker">
            <legend>GPU</legend>
            {gpus.length === 0 && <p className="muted">No GPU sample: this machine has no nvidia-smi.</p>}
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
            <code>{plan.command.join(' ')}</code>
            <div className="muted">
              name {plan.name} · cell {plan.cell} · in {plan.cwd}
              {plan.gpu !== null && ` · CUDA_VISIBLE_DEVICES=${plan.gpu}`}
            </div>
            {plan.refused && <div className="tone-fail">Would be refused: {plan.refused}</div>}
          </div>
        )}
        {error && (
          <p className="tone-fail" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" onClick={() => void dryRun()} disabled={busy || !profile}>
            Dry run
          </button>
          <button type="submit" disabled={busy || !profile}>
            {busy ? 'Launching…' : 'Launch'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
