import { useEffect, useMemo, useState } from 'react';
import { formatP, verdict, type PairedTest } from '../../../shared/mcnemar';
import type { CellSummary } from '../../../shared/model';
import { PinButton } from '../alerts/AlertToggles';
import { useApp, useTransport } from '../context';
import { percent } from '../format';
import { SideEpisode } from './SideEpisode';

interface Choice {
  id: string;
  label: string;
  format: string;
}

/** Every cell, and every evaluated policy version of a bigym cell, as something to compare. */
function choicesOf(cells: CellSummary[]): Choice[] {
  return cells.flatMap((cell) => [
    { id: cell.id, label: cell.name, format: cell.format },
    ...cell.evaluatedVersions.map((v) => ({ id: `${cell.id}@${v}`, label: `${cell.name} @ ${v}`, format: cell.format })),
  ]);
}

function SidePicker({ label, value, choices, onChange }: { label: string; value: string; choices: Choice[]; onChange: (id: string) => void }) {
  const formats = [...new Set(choices.map((c) => c.format))];
  return (
    <label className="side-picker">
      <span className="side-label">{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} aria-label={`Run ${label}`}>
        <option value="">choose a cell or version…</option>
        {formats.map((format) => (
          <optgroup key={format} label={format}>
            {choices.filter((c) => c.format === format).map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}

function Result({ test }: { test: PairedTest }) {
  const [episode, setEpisode] = useState<string | null>(null);
  if (!test.ok) {
    return (
      <div className="paired-refused" role="alert">
        <p>
          <strong>Refused:</strong> {test.a.name} and {test.b.name} did not run the same episodes, so their successes cannot be paired.
        </p>
        <p>
          Only in A ({test.only_a.length}): <code>{test.only_a.join(' ') || '–'}</code>
        </p>
        <p>
          Only in B ({test.only_b.length}): <code>{test.only_b.join(' ') || '–'}</code>
        </p>
      </div>
    );
  }
  const t = test.table;
  const difference = t.success_rate_a !== null && t.success_rate_b !== null ? t.success_rate_b - t.success_rate_a : null;
  return (
    <div className="paired-result">
      <p className="verdict" aria-label="Verdict">
        {verdict(t, 'A', 'B')}
      </p>
      <div className="paired-grid">
        <table className="two-by-two" aria-label="Paired outcomes">
          <thead>
            <tr>
              <th />
              <th scope="col">B succeeds</th>
              <th scope="col">B fails</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">A succeeds</th>
              <td className="tone-ok">{t.both}</td>
              <td className="discordant">{t.only_a}</td>
            </tr>
            <tr>
              <th scope="row">A fails</th>
              <td className="discordant">{t.only_b}</td>
              <td className="tone-fail">{t.neither}</td>
            </tr>
          </tbody>
        </table>
        <dl className="figures">
          <dt>A · {test.a.name}</dt>
          <dd>{percent(t.success_rate_a)}</dd>
          <dt>B · {test.b.name}</dt>
          <dd>{percent(t.success_rate_b)}</dd>
          <dt>B − A</dt>
          <dd>{difference === null ? '–' : `${difference >= 0 ? '+' : ''}${(difference * 100).toFixed(1)} pts`}</dd>
          <dt>pairs</dt>
          <dd>{t.pairs}</dd>
          <dt>exact p (two-sided)</dt>
          <dd aria-label="p-value">{formatP(t.p_value)}</dd>
          {(test.a.live || test.b.live) && (
            <>
              <dt>undecided</dt>
              <dd>{t.undecided.length} still running</dd>
            </>
          )}
        </dl>
      </div>
      <div className="paired-lists">
        <section aria-label="Discordant episodes">
          <h2 className="section-title">Discordant episodes ({t.discordant.length})</h2>
          <ul className="episode-chips">
            {t.discordant.map((d) => (
              <li key={d.id} className={d.winner === 'b' ? 'tone-ok' : 'tone-fail'} title={d.winner === 'b' ? 'B succeeds, A fails' : 'A succeeds, B fails'}>
                <button className="chip" aria-pressed={episode === d.id} onClick={() => setEpisode(episode === d.id ? null : d.id)}>
                  {d.id} {d.winner === 'b' ? 'B ✓' : 'A ✓'}
                </button>
              </li>
            ))}
          </ul>
        </section>
        {t.excluded.length > 0 && (
          <section aria-label="Excluded episodes">
            <h2 className="section-title">Excluded on either side ({t.excluded.length})</h2>
            <ul className="episode-chips">
              {t.excluded.map((e) => (
                <li key={e.id} className="tone-grey">
                  {e.id} {e.a ? `A ${e.a}` : ''} {e.b ? `B ${e.b}` : ''}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
      {episode !== null && (
        <div className="side-by-side">
          <SideEpisode label="A" side={test.a} episode={episode} />
          <SideEpisode label="B" side={test.b} episode={episode} />
        </div>
      )}
    </div>
  );
}

export function PairedTestView() {
  const transport = useTransport();
  const cells = useApp((s) => s.cells);
  const choices = useMemo(() => choicesOf(cells), [cells]);
  const [a, setA] = useState('');
  const [b, setB] = useState('');
  const [test, setTest] = useState<PairedTest | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Recomputed whenever the cells change, so a live pair updates as episodes end.
  useEffect(() => {
    if (!a || !b) return;
    let current = true;
    transport.call('pairedTest', a, b).then(
      (result) => current && (setTest(result), setError(null)),
      (e: unknown) => current && (setTest(null), setError(e instanceof Error ? e.message : String(e))),
    );
    return () => {
      current = false;
    };
  }, [transport, a, b, cells]);

  return (
    <section className="paired-view" aria-label="Paired test">
      <h1 className="view-title">
        Paired test <span className="count">exact McNemar over the episodes both runs scored</span>
      </h1>
      <div className="pickers">
        <SidePicker label="A" value={a} choices={choices} onChange={setA} />
        <button onClick={() => (setA(b), setB(a))} disabled={!a && !b} aria-label="Swap A and B" title="Swap A and B">
          ⇄
        </button>
        <SidePicker label="B" value={b} choices={b || !a ? choices : choices.filter((c) => c.format === choices.find((x) => x.id === a)?.format)} onChange={setB} />
        {test?.ok && <PinButton a={a} b={b} />}
      </div>
      {error && (
        <p className="paired-error" role="alert">
          {error}
        </p>
      )}
      {!a || !b ? <p className="empty-note">Choose two cells of one format, or two evaluated versions of a bigym cell.</p> : test && <Result test={test} />}
    </section>
  );
}
