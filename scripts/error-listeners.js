// An ESLint rule: `x.once('error', ...)` hears one error, and the next one an emitter reports (ssh2 reports
// a failed handshake twice) ends the process. Errors are heard with `on` for the emitter's whole life.
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
