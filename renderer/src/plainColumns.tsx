import type { CSSProperties, ReactNode, TdHTMLAttributes } from 'react';
import { ColumnsMenu } from './ColumnsMenu';
import { ResizeHandle } from './sorting';
import { useColumnPrefs } from './table-layout';

export interface PlainColumn<R> {
  key: string;
  title: string;
  /** Cannot be hidden (the column that names the row, a row's checkbox). */
  always?: boolean;
  /** A number: right-aligned. */
  numeric?: boolean;
  /** What the header says on hover. */
  hint?: string;
  render(row: R): ReactNode;
  /** The text the column shows for a row, where the table takes its widths from its content (columnLayout). */
  fit?: (row: R) => string;
  /** The cell's own attributes (a class, a tooltip). */
  td?: (row: R) => TdHTMLAttributes<HTMLTableCellElement>;
}

/**
 * A plain table's columns as the user set them, remembered per table as the cell list's are: the hidden
 * ones left out (its Columns menu), a dragged column held to its width (its header's edge; a double
 * click gives the column back its content's width). `name` is the table as its Columns menu names it.
 */
export function usePlainColumns<R>(table: string, columns: PlainColumn<R>[], name = table) {
  const [prefs, { toggle, resize }] = useColumnPrefs(table);
  const shown = columns.filter((c) => c.always || !prefs.hidden.includes(c.key));
  /** A dragged column's width, on its header and its cells alike (a long value is cut, whole on hover). */
  const width = (key: string): CSSProperties | undefined => {
    const px = prefs.widths[key];
    return px === undefined ? undefined : { width: px, minWidth: px, maxWidth: px, overflow: 'hidden', textOverflow: 'ellipsis' };
  };
  const menu = <ColumnsMenu table={name} columns={columns} prefs={prefs} onToggle={toggle} />;
  const header = (c: PlainColumn<R>) => (
    <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} style={width(c.key)} title={c.hint}>
      {c.title}
      <ResizeHandle title={c.title} onResize={(px) => resize(c.key, px)} />
    </th>
  );
  /** A row's cells, one a shown column. */
  const cells = (row: R) =>
    shown.map((c) => (
      <td key={c.key} className={c.numeric ? 'num' : undefined} style={width(c.key)} {...c.td?.(row)}>
        {c.render(row)}
      </td>
    ));
  return { shown, prefs, menu, header, cells };
}
