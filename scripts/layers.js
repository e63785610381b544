// The layer table of the README's Layout section as lint rules: a forbidden import fails `npm run lint`.

const anyPackage = '^(?!\\.{1,2}/)';
const sibling = (folder) => `^(\\.\\./)+${folder}(/|$)`;

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
  ],
  app: [{ regex: sibling('renderer'), message: 'app/ never imports renderer/: the window talks to it over the contract' }],
  renderer: [
    { regex: '^(node:|electron(/|$))', message: 'renderer/ runs in a browser: no node:*, no electron' },
    ...['main', 'app', 'runners'].map((f) => ({ regex: sibling(f), message: `renderer/ never imports ${f}/: use the contract` })),
  ],
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
