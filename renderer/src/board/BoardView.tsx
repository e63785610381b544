import { Fragment, useEffect, useMemo, useState } from 'react';
import { useVirtualRows } from '../cell-list/useVirtualRows';
import { formatP } from '../../../shared/mcnemar';
import { CallFailed } from '../CallFailed';
import { useApp, useFeed } from '../context';
import { counted, dollars, percent, successTitle, whole } from '../format';
import { successText } from '../../../shared/provenance';
import { decideText } from './decideText';
import { CostFrontier } from './CostFrontier';
import { STATE_LOOK } from '../cell-list/states';
import { BOARD_FIELDS, boardRows, downOf, gridOf, type BoardField, type BoardRow } from '../../../shared/board';
import { SIGNIFICANT, verdictsByPath, type Verdict } from '../../../shared/board-comparisons';
import { wilson95 } from '../../../shared/stats';
import { TableExport } from '../TableExport';
import { formatAddress } from '../../../shared/address';

/** A row of squares, its spacing included: rows are drawn only while on screen (a board of 10,000 cells has 1,000). */
const ROW_PITCH = 66;
/** Squares shown side by side in one crossing before the rest are counted on a button that shows them. */
const CLAIMANTS_SHOWN = 6;

/** Characters of a name with no underscore in them after which it may break all the same (an agent named with hundreds). */
const LONGEST_UNBROKEN = 40;

/** A run's name that may break after its underscores when its column is short of room: whole, never cut. */
function Breakable({ text }: { text: string }) {
  const parts = text.split('_');
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part.length <= LONGEST_UNBROKEN
        ? part
        : Array.from({ length: Math.ceil(part.length / LONGEST_UNBROKEN) }, (_, k) => (
            <Fragment key={k}>
              {k > 0 && <wbr />}
              {part.slice(k * LONGEST_UNBROKEN, (k + 1) * LONGEST_UNBROKEN)}
            </Fragment>
          ))}
      {i < parts.length - 1 && (
        <>
          _<wbr />
        </>
      )}
    </Fragment>
  ));
}

interface SquareProps {
  cell: BoardRow;
  /** Its real differences among the comparisons listed, and how many it won and lost in all. */
  verdicts: Verdict[];
  standing: { won: number; lost: number } | undefined;
  names: Map<string, string>;
  focused: boolean;
  onFocus: () => void;
}

function Square({ cell, verdicts, standing, names, focused, onFocus }: SquareProps) {
  const openCell = useApp((s) => s.openCell);
  const { successes, scored, planned } = cell.episodes;
  const interval = wilson95(successes, scored);
  const won = standing?.won ?? 0;
  const real = won + (standing?.lost ?? 0);
  const why = verdicts.map((v) => `${v.won ? 'beats' : 'loses to'} ${names.get(v.other) ?? v.other} (${v.comparison.field}): ${v.comparison.only_a}:${v.comparison.only_b} discordant, Holm p = ${formatP(v.comparison.p_adjusted)}`);
  if (real > verdicts.length) why.push(`${counted(real - verdicts.length, 'more real difference')} (${won} won in all), past the comparisons listed`);
  return (
    <button
      className={`board-square${cell.board === 'on' ? '' : ' off'}`}
      // A heat map by rate: the square tinted as its success rate (none where nothing is scored), its numbers on it.
      style={cell.success_rate === null ? undefined : ({ '--rate': `${Math.round(cell.success_rate * 100)}%` } as React.CSSProperties)}
      data-rated={cell.success_rate === null ? undefined : true}
      tabIndex={focused ? 0 : -1}
      data-focused={focused || undefined}
      onFocus={onFocus}
      // An agent's square opens its collection.
      onClick={() => openCell(cell.of?.cell.id ?? cell.id)}
      aria-label={`${cell.name}: ${successText(successes, scored)}`}
      title={[cell.name, formatAddress(cell), successTitle(cell), ...cell.board_reasons, ...why].join('\n')}
    >
      <span className="square-head">
        <span className={`dot tone-${STATE_LOOK[cell.state].tone}`} aria-hidden />
        <span className="square-rate">{scored ? `${whole(successes)}/${whole(scored)}` : '–'}</span>
        <span className="muted">{percent(cell.success_rate, 0)}</span>
        {won > 0 && (
          <span className="board-win" aria-label={`${counted(won, 'real difference')} won`}>
            ▲{won > 1 ? won : ''}
          </span>
        )}
      </span>
      <span className="ci-bar" aria-hidden>
        {interval && <span className="ci-range" style={{ left: `${interval[0] * 100}%`, width: `${(interval[1] - interval[0]) * 100}%` }} />}
        {cell.success_rate !== null && <span className="ci-point" style={{ left: `${cell.success_rate * 100}%` }} />}
      </span>
      <span className="square-foot muted">
        {planned !== null ? `${scored} of ${planned}` : `${scored} scored`}
        {cell.cost_usd_estimate !== null && ` · est. ${dollars(cell.cost_usd_estimate)}`}
        {cell.board !== 'on' && ` · ${cell.rivals.length ? 'claimed twice' : cell.board}`}
      </span>
    </button>
  );
}

/** One board per format and its board's name (a protocol, a task): squares by model and harness · condition · effort, and which differences are real. */
export function BoardView() {
  const cells = useApp((s) => s.cells);
  const setPaired = useApp((s) => s.setPaired);
  const setView = useApp((s) => s.setView);
  const { value: report, error } = useFeed((data) => data.board);
  const chosen = useApp((s) => s.boardName);
  const across = useApp((s) => s.boardAcross);
  const all = useApp((s) => s.boardAll);
  const setPlace = useApp((s) => s.setBoardPlace);
  const [cursor, setCursor] = useState<[number, number]>([0, 0]);
  /** The crossings whose every square the user asked to see. */
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  // Another board or another layout: the cursor starts again at the first square, each crossing cut again.
  useEffect(() => {
    setCursor([0, 0]);
    setOpened(new Set());
  }, [across, chosen, all]);

  const boards = report?.boards ?? [];
  // At first, the first board anyone is on.
  const board = boards.find((b) => b.name === chosen) ?? boards.find((b) => cells.some((c) => c.boardName === b.name && c.board === 'on')) ?? boards[0];
  // A collection of several agents: a square per agent.
  const squares = useMemo(() => boardRows(cells), [cells]);
  // Cells that claim one crossing are shown side by side, off the board, with or without "every cell".
  const shown = useMemo(() => squares.filter((c) => c.boardName === board?.name && (all || c.board === 'on' || c.rivals.length > 0)), [squares, board?.name, all]);
  const grid = useMemo(() => gridOf(shown, across), [shown, across]);
  const names = useMemo(() => new Map(squares.map((c) => [c.path, c.name])), [squares]);
  const verdicts = useMemo(() => verdictsByPath(board?.comparisons ?? []), [board?.comparisons]);
  const rows = useVirtualRows(grid.rows.length, ROW_PITCH);
  if (error && !report) return <CallFailed what="The board" error={error} />;
  if (!report) return null;
  if (!board) return <p className="muted empty-note">No cell here belongs to a board.</p>;

  const comparisons = board.comparisons;
  const move = (event: React.KeyboardEvent) => {
    const [row, column] = cursor;
    const next: Record<string, [number, number]> = {
      ArrowUp: [Math.max(0, row - 1), column],
      ArrowDown: [Math.min(grid.rows.length - 1, row + 1), column],
      ArrowLeft: [row, Math.max(0, column - 1)],
      ArrowRight: [row, Math.min(grid.columns.length - 1, column + 1)],
    };
    const to = next[event.key];
    if (!to) return;
    event.preventDefault();
    setCursor(to);
    (event.currentTarget.querySelector(`[data-square="${to[0]}-${to[1]}"] button`) as HTMLElement | null)?.focus();
  };
  const openPaired = (a: string, b: string) => {
    // An agent's side is `<id>@<agent>`, as the Paired view names it.
    const id = (path: string) => squares.find((c) => c.path === path)?.id ?? path;
    setPaired(id(a), id(b));
    setView('paired');
  };

  return (
    <section className="board-view" aria-label="Board">
      <div className="board-bar">
        {boards.length > 1 ? (
          <label>
            Board{' '}
            <select value={board.name} onChange={(e) => setPlace({ name: e.target.value })}>
              {boards.map((b) => (
                <option key={b.name}>{b.name}</option>
              ))}
            </select>
          </label>
        ) : (
          <strong>{board.name}</strong>
        )}
        <span className="muted" title="who is on this board">
          {board.rule}
        </span>
        <span className="spacer" />
        <TableExport
          name={`board ${board.name}`}
          markdown
          data={() => ({
            header: [downOf(across).join(' · '), ...grid.columns],
            // Each square as it reads: the cell's successes of scored and rate with its interval; two claimants side by side.
            rows: grid.rows.map((row, r) => [row, ...grid.columns.map((_, c) => grid.at(r, c).map((cell) => `${cell.name}: ${successText(cell.episodes.successes, cell.episodes.scored)}`).join(' / '))]),
          })}
        />
        <label>
          Columns{' '}
          <select value={across} onChange={(e) => setPlace({ across: e.target.value as BoardField })}>
            {BOARD_FIELDS.map((field) => (
              <option key={field}>{field}</option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={all} onChange={(e) => setPlace({ all: e.target.checked })} /> every cell, not only those on the board
        </label>
      </div>
      {shown.length === 0 ? (
        <p className="muted empty-note">No cell is on this board yet{all ? '' : '; tick "every cell" to see those that are not, and why'}.</p>
      ) : (
        <div className="board-scroll" ref={rows.ref} onScroll={rows.onScroll}>
          <table className="board-grid" aria-label={`Board ${board.name}`} onKeyDown={move}>
            <thead>
              <tr>
                <th>{downOf(across).join(' · ')}</th>
                {grid.columns.map((model) => (
                  <th key={model}>
                    <span className="board-label" title={model}>
                      {model}
                    </span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.first > 0 && <tr aria-hidden style={{ height: rows.first * ROW_PITCH - 6 }} />}
              {grid.rows.slice(rows.first, rows.last).map((row, i) => {
                const r = rows.first + i;
                return (
                  <tr key={row}>
                    <th scope="row">
                      <span className="board-label" title={row}>
                        {row}
                      </span>
                    </th>
                    {grid.columns.map((model, c) => {
                      const there = grid.at(r, c);
                      const focused = cursor[0] === r && cursor[1] === c;
                      const crossing = `${row}\0${model}`;
                      const listed = there.length <= CLAIMANTS_SHOWN || opened.has(crossing) ? there : there.slice(0, CLAIMANTS_SHOWN - 1);
                      return (
                        <td key={model} data-square={`${r}-${c}`}>
                          {there.length ? (
                            <div className="board-claimants">
                              {listed.map((cell, k) => (
                                <Square key={cell.id} cell={cell} verdicts={verdicts.get(cell.path) ?? []} standing={board.standing[cell.path]} names={names} focused={focused && k === 0} onFocus={() => setCursor([r, c])} />
                              ))}
                              {listed.length < there.length && (
                                <button className="board-more" onClick={() => setOpened(new Set(opened).add(crossing))} title={`Show every cell at ${row} · ${model}, side by side`}>
                                  {whole(there.length - listed.length)} more
                                </button>
                              )}
                            </div>
                          ) : (
                            <span className="board-empty muted">no cell</span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
              {rows.last < grid.rows.length && <tr aria-hidden style={{ height: (grid.rows.length - rows.last) * ROW_PITCH - 6 }} />}
            </tbody>
          </table>
        </div>
      )}
      <CostFrontier cells={shown.filter((c) => c.board === 'on')} />
      <h2 className="section-title">
        Real differences <span className="muted">({whole(board.real)} of {counted(board.compared, 'one-field comparison')} {board.real === 1 ? 'survives' : 'survive'} Holm's correction at 0.05)</span>
      </h2>
      {board.compared > comparisons.length && (
        <p className="muted">
          The {whole(comparisons.length)} of lowest Holm p are listed; <code>cellwatch board --json</code> prints every one.
        </p>
      )}
      {board.compared === 0 ? (
        <p className="muted">No two cells on this board differ in exactly one of harness, model, condition, effort.</p>
      ) : (
        <table className="plain-table" aria-label="Comparisons">
          <thead>
            <tr>
              <th>Differs in</th>
              <th>A</th>
              <th>B</th>
              <th className="num">A only</th>
              <th className="num">B only</th>
              <th className="num">p</th>
              <th className="num">Holm p</th>
              <th className="num" title="Further paired units until the exact test decides at its Holm level, if the discordance so far holds">Decides</th>
            </tr>
          </thead>
          <tbody>
            {comparisons.map((c) => (
              <tr key={`${c.a}\0${c.b}`} className={c.p_adjusted < SIGNIFICANT ? 'real' : undefined}>
                <td>
                  <button className="link" onClick={() => openPaired(c.a, c.b)} aria-label={`Paired view of ${names.get(c.a) ?? c.a} and ${names.get(c.b) ?? c.b}`} title="Open the Paired view on this pair">
                    {c.field}
                  </button>
                </td>
                <td className="run-name" title={c.a}>
                  <Breakable text={names.get(c.a) ?? c.a} />
                </td>
                <td className="run-name" title={c.b}>
                  <Breakable text={names.get(c.b) ?? c.b} />
                </td>
                <td className="num">{c.only_a}</td>
                <td className="num">{c.only_b}</td>
                <td className="num">{formatP(c.p_value)}</td>
                <td className="num" title={c.left_out ? `${counted(c.left_out, 'episode')} ended on one side only, left out` : undefined}>
                  {formatP(c.p_adjusted)}
                  {c.p_adjusted < SIGNIFICANT ? ' ▲' : ''}
                </td>
                <td className="num" title={decideText(c).title}>
                  {decideText(c).text}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
