// Module hooks for test/platform/vendor-packages.test.ts: report every resolved URL inside the
// vendor packages that a process on the built-in defaults must not load.
let port;
export function initialize(data) {
  port = data.port;
}
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (/\/node_modules\/(openai|typesense|@qdrant\/js-client-rest)\//.test(r.url)) port.postMessage(r.url);
  return r;
}
