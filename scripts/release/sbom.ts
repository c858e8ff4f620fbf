/**
 * Software bills of materials, CycloneDX JSON, one per published package. npm's: `npm sbom` of the
 * repository's installed tree (it describes the whole workspace tree at once), narrowed to what one
 * package brings in: its own manifest's dependencies and theirs, as package-lock.json resolves them (the
 * tree the release was built and tested with). Python's: the distribution and the requirements its metadata declares (resolved by
 * the installer, so named with their version ranges). Each names its artifact's SHA-256, and every
 * timestamp and serial number is derived from the commit and the content, so that they repeat.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";

interface Component {
  "bom-ref": string;
  name: string;
  version?: string;
  purl?: string;
  [key: string]: unknown;
}
interface Dependency {
  ref: string;
  dependsOn?: string[];
}
interface Bom {
  bomFormat: string;
  specVersion: string;
  metadata: { tools?: unknown; component?: Component; [key: string]: unknown };
  components: Component[];
  dependencies: Dependency[];
  [key: string]: unknown;
}

/** A published package to describe: its name, version, direct dependencies' names, and artifact digest. */
export interface PackageToDescribe {
  readonly name: string;
  readonly version: string;
  readonly dependencyNames: readonly string[];
  readonly sha256: string;
  readonly license: string;
}

/**
 * `npm sbom` of the repository's lockfile (production and development dependencies): the tree `npm ci`
 * installs, whatever node_modules holds (its workspace links may point elsewhere in a copy of the tree).
 */
export function npmTreeBom(root: string): Bom {
  const text = execFileSync("npm", ["sbom", "--sbom-format", "cyclonedx", "--package-lock-only"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(text) as Bom;
}

/** A UUID (version-5 layout) from `text`'s SHA-256: the same content, the same serial number. */
function contentUuid(text: string): string {
  const hex = createHash("sha256").update(text).digest("hex").slice(0, 32).split("");
  hex[12] = "5";
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The finished document: serial number from its content, timestamp the commit's. */
function finish(bom: Bom, isoTime: string): string {
  const dated = { ...bom, metadata: { ...bom.metadata, timestamp: isoTime } };
  const serialNumber = `urn:uuid:${contentUuid(JSON.stringify(dated))}`;
  const { bomFormat, specVersion, ...rest } = dated;
  return `${JSON.stringify({ bomFormat, specVersion, serialNumber, ...rest }, null, 2)}\n`;
}

function npmPurl(name: string, version: string): string {
  return `pkg:npm/${name.replace(/^@/, "%40")}@${version}`;
}

/**
 * The SBOM of one npm package: its dependency closure in `tree`. A package of this repository (named in
 * `own`) contributes only its manifest's dependencies, not the workspace links the tree gives it.
 */
export function npmPackageBom(
  tree: Bom,
  pkg: PackageToDescribe,
  own: ReadonlyMap<string, readonly string[]>,
  isoTime: string,
): string {
  const byRef = new Map(tree.components.map((component) => [component["bom-ref"], component]));
  const metaComponent = tree.metadata.component;
  if (metaComponent) byRef.set(metaComponent["bom-ref"], metaComponent);
  const edges = new Map(tree.dependencies.map((dependency) => [dependency.ref, dependency.dependsOn ?? []]));
  const refsNamed = (name: string, candidates: readonly string[]): string | undefined =>
    candidates.find((ref) => byRef.get(ref)?.purl?.startsWith(`pkg:npm/${name.replace(/^@/, "%40")}@`)) ??
    [...byRef.keys()].find((ref) =>
      byRef.get(ref)?.purl?.startsWith(`pkg:npm/${name.replace(/^@/, "%40")}@`),
    );
  const nameOf = (ref: string): string | undefined =>
    [...own.keys()].find((name) => byRef.get(ref)?.purl?.startsWith(`pkg:npm/${name.replace(/^@/, "%40")}@`));
  const direct = (ref: string, names?: readonly string[]): string[] => {
    const listed = edges.get(ref) ?? [];
    const ownName = nameOf(ref);
    const wanted = names ?? (ownName ? own.get(ownName) : undefined);
    if (!wanted) return listed;
    return wanted
      .map((name) => refsNamed(name, listed))
      .filter((found): found is string => found !== undefined);
  };
  const selfRef = `${pkg.name}@${pkg.version}`;
  const roots = direct("", pkg.dependencyNames);
  const seen = new Set<string>();
  const queue = [...roots];
  const dependencies: Dependency[] = [{ ref: selfRef, dependsOn: [...roots].sort() }];
  while (queue.length > 0) {
    const ref = queue.shift()!;
    if (seen.has(ref) || ref === selfRef) continue;
    seen.add(ref);
    const next = direct(ref);
    dependencies.push({ ref, dependsOn: [...next].sort() });
    queue.push(...next);
  }
  const components = [...seen]
    .sort()
    .map((ref) => byRef.get(ref))
    .filter((component): component is Component => component !== undefined)
    .map((component) => ({ ...component, name: packageName(component) }));
  return finish(
    {
      bomFormat: tree.bomFormat,
      specVersion: tree.specVersion,
      version: 1,
      metadata: {
        lifecycles: [{ phase: "build" }],
        tools: tree.metadata.tools,
        component: {
          "bom-ref": selfRef,
          type: "library",
          name: pkg.name,
          version: pkg.version,
          purl: npmPurl(pkg.name, pkg.version),
          hashes: [{ alg: "SHA-256", content: pkg.sha256 }],
          licenses: [{ license: { id: pkg.license } }],
        },
      },
      components,
      dependencies: dependencies.sort((a, b) => a.ref.localeCompare(b.ref)),
    },
    isoTime,
  );
}

/** The package's npm name (npm sbom names a workspace by its folder), from its purl. */
function packageName(component: Component): string {
  const match = component.purl?.match(/^pkg:npm\/(.+)@[^@]+$/);
  return match ? decodeURIComponent(match[1]) : component.name;
}

/** A Python requirement (`name>=1,<2; marker`) as a component: its name, range and marker. */
function requirementComponent(requirement: string): Component {
  const [spec, marker] = requirement.split(";").map((part) => part.trim());
  const name = spec.match(/^[A-Za-z0-9._-]+/)![0];
  const range = spec.slice(name.length).trim();
  const normalized = name.toLowerCase().replace(/[._]+/g, "-");
  return {
    "bom-ref": `pkg:pypi/${normalized}`,
    type: "library",
    name,
    purl: `pkg:pypi/${normalized}`,
    scope: "required",
    properties: [
      { name: "python:requirement", value: requirement },
      ...(range ? [{ name: "python:version-range", value: range }] : []),
      ...(marker ? [{ name: "python:marker", value: marker }] : []),
    ],
  };
}

/** The SBOM of one Python distribution: the distribution and the requirements it declares. */
export function pythonDistributionBom(
  pkg: PackageToDescribe,
  fileName: string,
  requirements: readonly string[],
  isoTime: string,
): string {
  const normalized = pkg.name.toLowerCase().replace(/[._]+/g, "-");
  const selfRef = `pkg:pypi/${normalized}@${pkg.version}`;
  const components = requirements.map(requirementComponent).sort((a, b) => a.name.localeCompare(b.name));
  return finish(
    {
      bomFormat: "CycloneDX",
      specVersion: "1.5",
      version: 1,
      metadata: {
        lifecycles: [{ phase: "build" }],
        tools: [{ vendor: "pulumi-codesec", name: "npm run release" }],
        component: {
          "bom-ref": selfRef,
          type: "library",
          name: pkg.name,
          version: pkg.version,
          purl: selfRef,
          hashes: [{ alg: "SHA-256", content: pkg.sha256 }],
          licenses: [{ license: { id: pkg.license } }],
          properties: [{ name: "python:distribution", value: fileName }],
        },
      },
      components,
      dependencies: [
        { ref: selfRef, dependsOn: components.map((component) => component["bom-ref"]) },
        ...components.map((component) => ({ ref: component["bom-ref"], dependsOn: [] })),
      ],
    },
    isoTime,
  );
}
