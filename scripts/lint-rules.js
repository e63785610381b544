// Small ESLint rules of this project's own, each against a mistake it made once.

/**
 * `x.once('error', ...)` hears one error, and the next one an emitter reports (ssh2 reports a failed
 * handshake twice) ends the process. Errors are heard with `on` for the emitter's whole life.
 */
export const errorHeardForLife = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      CallExpression(node) {
        const { callee, arguments: args } = node;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier' || callee.property.name !== 'once') return;
        if (args[0]?.type === 'Literal' && args[0].value === 'error') {
          context.report({ node, message: "once('error') leaves the emitter's next error unheard, which ends the process: use on('error') and settle once" });
        }
      },
    };
  },
};

const SPREADING = new Set(['push', 'unshift', 'max', 'min']);

/**
 * `rows.push(...records)` and `Math.max(...values)` pass every item as an argument: past about 120,000
 * (a log of tiny lines read at once) the call overflows the stack. `append` (shared/arrays.ts) or a loop.
 * A spread of a literal list (`push(...['-i', file])`) is bounded and allowed.
 */
export const noUnboundedSpread = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      CallExpression(node) {
        const { callee } = node;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier' || !SPREADING.has(callee.property.name)) return;
        for (const arg of node.arguments) {
          if (arg.type === 'SpreadElement' && arg.argument.type !== 'ArrayExpression') {
            context.report({ node: arg, message: `${callee.property.name}(...) with a spread of a list of any length overflows the stack past ~120,000 items: use append() from shared/arrays.ts, or a loop` });
          }
        }
      },
    };
  },
};

/**
 * The renderer's components get their data from the data layer (renderer/src/data/: feeds fed by events,
 * and its actions); the transport is held there and by the provider that makes it. A component that
 * calls the transport makes a second way to the core (its own polls, its own error handling).
 */
export const transportInDataLayer = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const report = (node) => context.report({ node, message: 'the transport outside renderer/src/data/: read a feed (useFeed) or call an action of the data layer (useData)' });
    return {
      MemberExpression(node) {
        if (node.object.type === 'Identifier' && node.object.name === 'transport') report(node);
      },
      ImportSpecifier(node) {
        if (node.imported.type === 'Identifier' && node.imported.name === 'Transport') report(node);
      },
    };
  },
};

/**
 * One place module tells this machine from an SSH host: main/place/ (the contexts and the registry, the
 * only way into main/ssh/) and shared/address.ts (LOCAL, isLocal). Elsewhere a place is a HostContext or a
 * host id, never the literal 'local' nor an SSH module.
 */
export const placeInPlaceModule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      Literal(node) {
        if (node.value === 'local') context.report({ node, message: "the literal 'local' outside the place module: use LOCAL or isLocal (shared/address.ts), or ask the place's HostContext" });
      },
      ImportDeclaration(node) {
        if (/(^|\/)ssh\//.test(node.source.value)) context.report({ node, message: 'main/ssh/ is reached through the place module (main/place/: a HostContext, the registry), not imported' });
      },
    };
  },
};
