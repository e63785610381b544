// Every keyboard shortcut of the window, where it works, for the help that `?` opens: one table, so the
// help cannot miss one that a view adds (add it here).
export const SHORTCUTS: { keys: string[]; what: string; where: string }[] = [
  { keys: ['Ctrl+K', '⌘K'], what: 'go to a cell, version, episode, view or command', where: 'everywhere' },
  { keys: ['?'], what: 'these shortcuts', where: 'everywhere' },
  { keys: ['Ctrl+B', '⌘B'], what: 'show or hide the sidebar', where: 'everywhere' },
  { keys: ['Esc'], what: 'close what is open: a popover, the dialog, the cell (back to the list)', where: 'everywhere' },
  { keys: ['j', '↓'], what: 'next row (a transcript: next turn, j only)', where: 'the cell list, a cell’s episodes, a transcript' },
  { keys: ['k', '↑'], what: 'previous row (a transcript: previous turn, k only)', where: 'the cell list, a cell’s episodes, a transcript' },
  { keys: ['Enter'], what: 'open the highlighted cell', where: 'the cell list' },
  { keys: ['f', '/'], what: 'filter the list; search the events, the log or the transcript', where: 'the cell list, a stream, the Logs tab, a transcript' },
  { keys: ['n', 'N'], what: 'the next or previous match of the search', where: 'a transcript' },
  { keys: ['←', '→', 'Home', 'End'], what: 'the previous, next, first or last tab', where: 'a strip of tabs' },
  { keys: ['Space'], what: 'play or pause', where: 'frames, Compare' },
  { keys: ['[', ']'], what: 'the previous or next frame', where: 'frames, Compare' },
  { keys: [',', '.'], what: 'slower or faster', where: 'Compare' },
];
