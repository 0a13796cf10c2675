// dependency-cruiser (run by `npm run lint`): the layers of src/ and the direction of their
// imports (CONTRIBUTING.md: data flows top to bottom, never back up). Side-effect-only imports are an
// ESLint rule (eslint.config.js): dependency-cruiser does not tell them apart from other imports.

/**
 * Each directory of src/, bottom to top, with the directories it may import from (its own is
 * always allowed) and why it sits there. Type-only imports count: a type that points up is a
 * dependency that points up.
 */
const LAYERS = [
  {
    dir: "core",
    may: [],
    why: "the engine: plain TypeScript with time passed in; what it needs (a policy registry, parsed options) is handed to it",
  },
  {
    dir: "server",
    may: [],
    why: "Node HTTP helpers (addresses, operator auth, body limits, logs) that stand alone, so options and the room can use them",
  },
  {
    dir: "policies",
    may: ["core"],
    why: "each policy implements core's contract; the default registry collects them",
  },
  {
    dir: "ratings",
    may: ["core"],
    why: "ratings learned from results (the rating system, the ledger, its stores): the queue's options, the queue room and the simulator use them",
  },
  {
    dir: "options",
    may: ["core", "policies", "server", "ratings"],
    why: "the queue's options, checked once: they name policies (the default registry's capabilities), trusted proxies and the ratings ledger",
  },
  {
    dir: "trace",
    may: ["core", "options"],
    why: "the traffic trace's file format: the room writes it and the simulator reads it, so it sits below both",
  },
  {
    dir: "colyseus",
    may: ["core", "policies", "options", "server", "trace", "ratings"],
    why: "the queue room drives the engine with real joins; it never reaches into the simulator",
  },
  {
    dir: "sim",
    may: ["core", "policies", "options", "trace", "ratings"],
    why: "the simulator drives the same engine with seeded arrivals, without Colyseus",
  },
  {
    dir: "client",
    may: ["options", "colyseus"],
    why: "the browser's queue client speaks the room's protocol, whose messages and join options it takes as types",
  },
  {
    dir: "web",
    may: ["core", "options", "colyseus", "ratings"],
    why: "the player page's server side lists the queue rooms it serves",
  },
];

const layerRules = LAYERS.map(({ dir, may, why }) => ({
  name: `layer-${dir}`,
  severity: "error",
  comment: `src/${dir}/ imports only ${may.length ? `src/{${may.join(",")}}/` : "itself"}: ${why}.`,
  from: { path: `^src/${dir}/` },
  to: { path: "^src/", pathNot: [`^src/${dir}/`, ...may.map((below) => `^src/${below}/`)] },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...layerRules,
    {
      name: "client-takes-types-only",
      severity: "error",
      comment:
        "src/client/ runs in browsers: from the rest of src/ it imports types only, so no server code reaches a page's bundle.",
      from: { path: "^src/client/" },
      to: { path: "^src/", pathNot: "^src/client/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "entries-are-the-top",
      severity: "error",
      comment:
        "The package's entry points (src/index.ts, src/engine.ts) gather the layers for users; nothing inside imports them.",
      from: { path: "^src/" },
      to: { path: "^src/(index|engine)\\.ts$" },
    },
    {
      name: "layer-unknown",
      severity: "error",
      comment: "Every directory of src/ has its place in LAYERS (.dependency-cruiser.js); a new one needs its rule.",
      from: { path: "^src/[^/]+/", pathNot: `^src/(${LAYERS.map((l) => l.dir).join("|")})/` },
      to: {},
    },
    {
      name: "no-directory-cycles",
      severity: "error",
      comment: "Two directories that import each other are one layer in disguise: no import cycle between folders.",
      scope: "folder",
      from: { path: "^src/" },
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: "^src/",
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
