// The two services formctl knows (docs/service.md): the service as its API spec describes it, and
// the deployed OpnForm server with its sharp edges. The sandbox behaves as either; `formctl sandbox
// --flavor` offers exactly these.

/** The flavours, the default (the spec) first. */
export const FLAVORS = ['spec', 'deployed'] as const;

/** Which service the sandbox behaves as. */
export type Flavor = (typeof FLAVORS)[number];
