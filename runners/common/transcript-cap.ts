// A transcript as the window is sent it: each text of an item cut to what a page can lay out at once. A 100 MB
// message sent whole took a second of the page's main thread to draw, and 14 s to arrive.
import type { Transcript, TranscriptItem } from '../../shared/cell-detail';

/** The most characters of one text of an item sent to the window. */
export const MAX_ITEM_CHARS = 200_000;

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const rest = text.length - max;
  return `${text.slice(0, max)}\n… ${rest.toLocaleString('en-US')} more characters, too long to show whole (${text.length.toLocaleString('en-US')} in all)`;
}

function capItem(item: TranscriptItem, max: number): TranscriptItem {
  switch (item.kind) {
    case 'call':
      return { ...item, arguments: cut(item.arguments, max), output: item.output === null ? null : cut(item.output, max) };
    case 'other':
      return { ...item, json: cut(item.json, max) };
    default:
      return { ...item, text: cut(item.text, max) };
  }
}

/** Each item's texts, the answer, the patch and the observations' JSON cut to `max` characters each. */
export function capTranscript(t: Transcript, max = MAX_ITEM_CHARS): Transcript {
  return {
    ...t,
    items: t.items.map((item) => capItem(item, max)),
    answer: t.answer === null ? null : cut(t.answer, max),
    patch: t.patch === null ? null : cut(t.patch, max),
    observed: t.observed && { ...t.observed, json: cut(t.observed.json, max) },
  };
}
