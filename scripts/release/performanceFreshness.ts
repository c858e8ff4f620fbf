/**
 * Whether docs/performance.md holds for a release: its figures count only when a full bench run of every
 * step (or full runs merged, of the same sources) measured them on the release's own provider, plugin and
 * SDK sources (the digest scripts/measuredSources.ts makes, which a
 * bench run records and the page publishes). `--allow-stale-performance` builds anyway, for a rehearsal
 * or a test; the provenance then records it, so that such a build is visibly not one to publish.
 */
import { publishedNotReleaseMeasurement, publishedSourcesDigest } from "../../bench/support/results";

export const PERFORMANCE_PAGE = "docs/performance.md";
export const ALLOW_STALE_PERFORMANCE = "--allow-stale-performance";

/** What `npm run release` was asked for on its command line. */
export interface ReleaseOptions {
  allowStalePerformance: boolean;
}

/** The release's options from its arguments; an unknown one is refused. */
export function releaseOptions(args: readonly string[]): ReleaseOptions {
  const unknown = args.filter((arg) => arg !== ALLOW_STALE_PERFORMANCE);
  if (unknown.length > 0) {
    throw new Error(
      `npm run release takes no argument but ${ALLOW_STALE_PERFORMANCE}, not ${unknown.join(" ")}`,
    );
  }
  return { allowStalePerformance: args.includes(ALLOW_STALE_PERFORMANCE) };
}

/**
 * Why the page's figures do not hold for a release whose measured sources have `digest`, and what to
 * run; undefined when they hold.
 */
export function stalePerformance(page: string, digest: string): string | undefined {
  const published = publishedSourcesDigest(page);
  if (published === digest) return undefined;
  const notMeasured = publishedNotReleaseMeasurement(page);
  const why =
    published !== undefined
      ? `was measured on sources ${published}, not on this release's ${digest}`
      : notMeasured !== undefined
        ? `holds no full bench run of every step (${notMeasured})`
        : "names no digest of the sources it was measured on";
  return (
    `${PERFORMANCE_PAGE} ${why} (the provider, plugin and SDK sources: scripts/measuredSources.ts). ` +
    "Run the bench on this commit (`npm run bench`, then `npm run bench:report`), commit bench/results.json " +
    `and ${PERFORMANCE_PAGE}, then release. A rehearsal builds anyway with ` +
    `\`npm run release -- ${ALLOW_STALE_PERFORMANCE}\`, and its provenance says so.`
  );
}
