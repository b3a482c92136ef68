// Zod's parse options for a schema that parses a handful of times, at start: the configuration,
// brand/brand.json, the embedded content's front matter, the build's manifests.
//
// On an object schema's first parse, zod compiles a parser for its shape (`new Function`), which
// pays back only over many parses (a request body's schema). For a schema parsed once, it is
// most of the cost: brand.json's and the configuration's first parses took ~20 ms of every cold
// start that way, ~2 ms without (docs/decisions/045). Results and error messages are the same.
export const PARSE_ONCE = { jitless: true } as const;
