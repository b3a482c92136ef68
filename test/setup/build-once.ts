// The server renders with the client build's manifest: build once before the suite if stale.
import { build, isBuildStale } from '../../scripts/build.ts';

export default async function setup() {
  if (isBuildStale()) await build({ quiet: true });
}
