// The commands' help texts: a paragraph made of other texts (each format's words) cut into lines as the
// help's other lines are.

/** `text` cut at spaces into lines of at most `width` characters, as the help's other lines are. */
export function wrapped(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}
