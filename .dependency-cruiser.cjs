/**
 * Layering rules (README "Architecture"), checked by `npm run lint`:
 * api and pipelines import shared; workers import pipelines; shared never imports api, pipelines,
 * workers or scripts; an area reaches another area only through its index.ts; platform, text and
 * engines sit below every area; text is pure; nothing imports in a circle.
 */
const AREA_EXCEPT_LOWER = '^shared/(?!platform/|text/|engines/|deps\\.ts)[^/]+/';
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'no import circles (type-only imports included)', from: {}, to: { circular: true } },
    {
      name: 'shared-stays-below',
      severity: 'error',
      comment: 'shared/ never imports api/, pipelines/, workers/, scripts/ or the areas list',
      from: { path: '^shared/' },
      to: { path: '^(api|pipelines|workers|scripts|test|bench)/|^areas\\.ts$' },
    },
    {
      name: 'api-not-pipelines',
      severity: 'error',
      comment: 'api/ talks to pipelines only through queues (job contracts live in shared/<area>)',
      from: { path: '^api/' },
      to: { path: '^(pipelines|workers|scripts)/' },
    },
    {
      name: 'pipelines-not-api',
      severity: 'error',
      comment: 'pipelines/ never imports api/, workers/ or scripts/',
      from: { path: '^pipelines/' },
      to: { path: '^(api|workers|scripts)/' },
    },
    {
      name: 'deps-is-the-root',
      severity: 'error',
      comment: 'shared/deps.ts wires the areas; no area imports it (services take narrow dependencies)',
      from: { path: '^shared/', pathNot: '^shared/deps\\.ts$' },
      to: { path: '^shared/deps\\.ts$' },
    },
    {
      name: 'area-through-index',
      severity: 'error',
      comment: 'an area imports another area only through its index.ts',
      from: { path: '^shared/([^/]+)/' },
      to: { path: AREA_EXCEPT_LOWER, pathNot: ['^shared/$1/', '^shared/[^/]+/index\\.ts$'] },
    },
    {
      name: 'lower-layers-below-areas',
      severity: 'error',
      comment: 'platform, text and engines never import an area or the composition root',
      from: { path: '^shared/(platform|text|engines)/' },
      to: { path: [AREA_EXCEPT_LOWER, '^shared/deps\\.ts$'] },
    },
    {
      name: 'text-is-pure',
      severity: 'error',
      comment: 'shared/text is pure functions: no other module of the project, no I/O packages',
      from: { path: '^shared/text/' },
      to: { pathNot: '^shared/text/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'engines-below-platform-config-only',
      severity: 'error',
      comment: 'engines import text, platform and their own port only',
      from: { path: '^shared/engines/' },
      to: { path: '^shared/', pathNot: ['^shared/engines/', '^shared/text/', '^shared/platform/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
