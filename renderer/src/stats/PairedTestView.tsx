import { useEffect, useMemo, useState } from 'react';
import { formatP, verdict, type PairedTest } from '../../../shared/mcnemar';
import { PinButton } from '../alerts/AlertToggles';
import { useApp, useData } from '../context';
import { percent } from '../format';
import { SideEpisode } from './SideEpisode';
import { FirstDivergence } from './FirstDivergence';
import { choicesOf, SidePicker } from './SidePicker';
import { asError } from '../../../shared/errors';
import { sideRow } from '../../../shared/board';
import { CallFailed } from '../CallFailed';

/** A side's outcome on an episode: green success, red failure, the side named in plain text. */
function Mark({ side, success }: { side: 'A' | 'B'; success: boolean }) {
  return (
    <span className={success ? 'tone-ok' : 'tone-fail'}>
      {side} {success ? '✓' : '✗'}
    </span>
  );
}

/** A side's rate over the paired units, and the list's (over all it scored) when they differ. */
function SideRate({ rate, cellId, unit }: { rate: number | null; cellId: string; unit: string }) {
  // An agent's side of a collection has its own rate, as its square on the board.
  const listed = useApp((s) => sideRow(s.cells, cellId)?.success_rate ?? null);
  const differs = listed !== null && rate !== null && Math.abs(listed - rate) > 0.0005;
  return (
    <dd>
      {percent(rate)}
      {differs && <span className="muted"> over the paired {unit}s (the list: {percent(listed)} over all it scored)</span>}
    </dd>
  );
}

/** A list's title: its whole length, and how many of it are shown when the test carries only the first of them. */
function listTitle(title: string, shown: number, whole: number | undefined): string {
  const all = whole ?? shown;
  return `${title} (${all.toLocaleString('en-US')}${all > shown ? `; the first ${shown.toLocaleString('en-US')} shown, every one in cellwatch mcnemar --json` : ''})`;
}

function Result({ test }: { test: PairedTest }) {
  const [episode, setEpisode] = useState<string | null>(null);
  const lengths = test.lengths ?? {};
  if (!test.ok) {
    return (
      <div className="paired-refused" role="alert">
        <p>
          <strong>Refused:</strong> {test.a.name} and {test.b.name} did not run the same {test.a.unit}s, so their successes cannot be paired.
        </p>
        <p>
          {listTitle('Only in A', test.only_a.length, lengths.only_a)}: <code>{test.only_a.join(' ') || '–'}</code>
        </p>
        <p>
          {listTitle('Only in B', test.only_b.length, lengths.only_b)}: <code>{test.only_b.join(' ') || '–'}</code>
        </p>
      </div>
    );
  }
  const t = test.table;
  const difference = t.success_rate_a !== null && t.success_rate_b !== null ? t.success_rate_b - t.success_rate_a : null;
  return (
    <div className="paired-result">
      <p className="verdict" aria-label="Verdict">
        {verdict(t, 'A', 'B', test.a.unit)}
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
          <SideRate rate={t.success_rate_a} cellId={test.a.id} unit={test.a.unit} />
          <dt>B · {test.b.name}</dt>
          <SideRate rate={t.success_rate_b} cellId={test.b.id} unit={test.a.unit} />
          <dt>B − A</dt>
          <dd>{difference === null ? '–' : `${difference >= 0 ? '+' : ''}${(difference * 100).toFixed(1)} pts`}</dd>
          <dt>pairs</dt>
          <dd>{t.pairs}</dd>
          <dt>exact p (two-sided)</dt>
          <dd aria-label="p-value">{formatP(t.p_value)}</dd>
          {(test.a.live || test.b.live) && (
            <>
              <dt>undecided</dt>
              <dd>{(lengths.undecided ?? t.undecided.length).toLocaleString('en-US')} still running</dd>
            </>
          )}
        </dl>
      </div>
      <div className="paired-lists">
        <section aria-label={`Discordant ${test.a.unit}s`}>
          <h2 className="section-title">{listTitle(`Discordant ${test.a.unit}s`, t.discordant.length, lengths.discordant)}</h2>
          <ul className="episode-chips">
            {t.discordant.map((d) => (
              <li key={d.id} title={d.winner === 'b' ? 'B succeeds, A fails' : 'A succeeds, B fails'}>
                <button className="chip" aria-pressed={episode === d.id} onClick={() => setEpisode(episode === d.id ? null : d.id)}>
                  {d.id} <Mark side="A" success={d.winner === 'a'} /> <Mark side="B" success={d.winner === 'b'} />
                </button>
              </li>
            ))}
          </ul>
        </section>
        {t.excluded.length > 0 && (
          <section aria-label={`Excluded ${test.a.unit}s`}>
            <h2 className="section-title">{listTitle('Excluded on either side', t.excluded.length, lengths.excluded)}</h2>
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
      {episode !== null && <FirstDivergence a={test.a} b={test.b} unit={episode} />}
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
  const { stats } = useData();
  const cells = useApp((s) => s.cells);
  const choices = useMemo(() => choicesOf(cells), [cells]);
  const a = useApp((s) => s.pairedA);
  const b = useApp((s) => s.pairedB);
  const setPaired = useApp((s) => s.setPaired);
  const setA = (id: string) => setPaired(id, b);
  const setB = (id: string) => setPaired(a, id);
  const [test, setTest] = useState<PairedTest | null>(null);
  const [error, setError] = useState<Error | null>(null);

  const same = a !== '' && a === b;
  // Recomputed whenever the cells change, so a live pair updates as episodes end.
  useEffect(() => {
    if (!a || !b || same) return;
    let current = true;
    stats.pairedTest(a, b).then(
      (result) => current && (setTest(result), setError(null)),
      (e: unknown) => current && (setTest(null), setError(asError(e))),
    );
    return () => {
      current = false;
    };
  }, [stats, a, b, same, cells]);

  return (
    <section className="paired-view" aria-label="Paired test">
      <h1 className="view-title">
        Paired test <span className="count">exact McNemar over the units both runs scored</span>
      </h1>
      <div className="pickers">
        <SidePicker label="A" value={a} choices={choices} onChange={setA} />
        <button onClick={() => setPaired(b, a)} disabled={!a && !b} aria-label="Swap A and B" title="Swap A and B">
          ⇄
        </button>
        <SidePicker label="B" value={b} choices={b || !a ? choices : choices.filter((c) => c.format === choices.find((x) => x.id === a)?.format)} onChange={setB} />
        {test?.ok && !same && <PinButton a={a} b={b} />}
      </div>
      {error && <CallFailed what="The paired test" error={error} />}
      {same ? (
        <p className="paired-refused" role="alert">
          A and B are the same run: every unit agrees with itself, so there is nothing to test. Choose another for B.
        </p>
      ) : !a || !b ? (
        <p className="empty-note">Choose two cells of one format, or two evaluated policy versions of one cell.</p>
      ) : (
        test && <Result test={test} />
      )}
    </section>
  );
}
