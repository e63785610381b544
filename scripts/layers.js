// The layer table of the README's Layout section as lint rules: a forbidden import fails `npm run lint`.

const anyPackage = '^(?!\\.{1,2}/)';
const sibling = (folder) => `^(\\.\\./)+${folder}(/|$)`;

/** The run-directory formats, one folder each in runners/ (a test checks this against the adapters). */
export const FORMAT_IDS = ['coding-agent', 'bigym-agent', 'evopolicygym', 'harbor-job', 'nemo-gym', 'inspect'];
const formatFolder = `^(\\.\\./)+runners/(${FORMAT_IDS.join('|')})(/|$)`;
const formatMessage = (folder) => `${folder}/ asks a format for its capabilities (runners/index.ts), never imports a format's folder`;

/** What each folder may not import, as `no-restricted-imports` patterns. */
export const LAYERS = {
  shared: [{ regex: anyPackage, message: 'shared/ imports nothing outside itself: no packages, no node:*, no electron, no react' }],
  runners: [
    { regex: '^(electron|react|react-dom)(/|$)', message: 'runners/ never imports electron or react' },
    ...['main', 'app', 'renderer'].map((f) => ({ regex: sibling(f), message: `runners/ never imports ${f}/` })),
  ],
  main: [
    { regex: '^(electron|react|react-dom)(/|$)', message: 'main/ never imports electron or react: it runs without them' },
    ...['app', 'renderer'].map((f) => ({ regex: sibling(f), message: `main/ never imports ${f}/` })),
    { regex: formatFolder, message: formatMessage('main') },
  ],
  app: [{ regex: sibling('renderer'), message: 'app/ never imports renderer/: the window talks to it over the contract' }],
  renderer: [
    { regex: '^(node:|electron(/|$))', message: 'renderer/ runs in a browser: no node:*, no electron' },
    ...['main', 'app', 'runners'].map((f) => ({ regex: sibling(f), message: `renderer/ never imports ${f}/: use the contract` })),
  ],
};

/** main/ and renderer/ never branch on a format by its id: they ask for capabilities. Tests may name formats. */
export const formatLiteralRule = {
  files: ['main/**/*.{ts,tsx}', 'renderer/**/*.{ts,tsx}'],
  ignores: ['**/*.test.{ts,tsx}', '**/testing.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: `Literal[value=/^(${FORMAT_IDS.join('|')})$/]`,
        message: 'a format id outside runners/: ask the format for a capability instead (cell.capabilities, ADAPTERS[format].capabilities)',
      },
    ],
  },
};

export function layerRules(builtinModules) {
  const bareBuiltins = builtinModules.filter((m) => !m.startsWith('_'));
  return Object.entries(LAYERS).map(([folder, patterns]) => ({
    files: [`${folder}/**/*.{ts,tsx}`],
    ignores: folder === 'shared' ? ['shared/**/*.test.ts'] : [],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: folder === 'renderer' ? bareBuiltins.map((name) => ({ name, message: 'renderer/ runs in a browser: no Node built-ins' })) : [],
          patterns,
        },
      ],
    },
  }));
}
