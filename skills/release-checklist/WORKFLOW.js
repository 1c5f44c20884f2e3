export const meta = {
  name: 'release-checklist',
  description: 'Cut a tagged release of a git repository safely: verify a clean tree on the release branch, check the new version is valid semver and greater than the last tag, run the test command, require a changelog entry, create an annotated tag and push it after confirmation. Use when releasing a new version of a project.',
  version: '1.0.0',
};

// inputs declares what the runner asks for (or reads from the command line) before
// calling the default export; missing optional inputs take their defaults.
export const inputs = {
  version: { type: 'string', description: 'The version to release, for example 1.4.0 (no leading v).', required: true },
  branch: { type: 'string', description: 'The branch releases are cut from.', default: 'main' },
  testCommand: { type: 'string', description: 'Command that must pass before tagging.', default: 'make test' },
  changelog: { type: 'string', description: 'Changelog file that must mention the version.', default: 'CHANGELOG.md' },
  tagPrefix: { type: 'string', description: 'Prefix for the tag name.', default: 'v' },
};

// The runner calls the default export with a context object:
//   ctx.inputs                  values for the inputs declared above (defaults applied)
//   ctx.step(title, fn)         runs fn as a named, reported step; a throw fails the workflow
//   ctx.exec(cmd, args, opts)   runs a process without a shell; resolves to { code, stdout, stderr }
//   ctx.readFile(path)          resolves to the file's text, or null when it does not exist
//   ctx.confirm(question)       asks the user; resolves to true or false
//   ctx.log(message)            prints progress
// Apart from the test command it runs, the workflow only reads, except for the tag it
// creates and the push it asks the user to confirm.

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

function parseSemver(text) {
  const m = SEMVER.exec(text);
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ?? '' };
}

// compareSemver orders two parsed versions by semver precedence (build metadata ignored).
function compareSemver(a, b) {
  for (const key of ['major', 'minor', 'patch']) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  if (a.pre === b.pre) return 0;
  if (a.pre === '') return 1; // a release ranks above its pre-releases
  if (b.pre === '') return -1;
  const pa = a.pre.split('.');
  const pb = b.pre.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if (pa[i] === undefined) return -1;
    if (pb[i] === undefined) return 1;
    const na = /^\d+$/.test(pa[i]);
    const nb = /^\d+$/.test(pb[i]);
    if (na && nb && Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) < Number(pb[i]) ? -1 : 1;
    if (na !== nb) return na ? -1 : 1;
    if (!na && pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return 0;
}

async function git(ctx, args) {
  const res = await ctx.exec('git', args);
  if (res.code !== 0) {
    throw new Error(`git ${args.join(' ')} failed (exit ${res.code}): ${res.stderr.trim()}`);
  }
  return res.stdout.trim();
}

export default async function releaseChecklist(ctx) {
  const { version, branch, testCommand, changelog, tagPrefix } = ctx.inputs;
  const tag = `${tagPrefix}${version}`;
  const wanted = parseSemver(version);

  await ctx.step('Version is valid semver', async () => {
    if (!wanted) {
      throw new Error(`"${version}" is not a semantic version such as 1.4.0; pass it without a leading v.`);
    }
  });

  await ctx.step(`On an up-to-date ${branch} with a clean tree`, async () => {
    const current = await git(ctx, ['rev-parse', '--abbrev-ref', 'HEAD']);
    if (current !== branch) {
      throw new Error(`On branch ${current}; releases are cut from ${branch}. Run: git switch ${branch}`);
    }
    const status = await git(ctx, ['status', '--porcelain']);
    if (status !== '') {
      throw new Error('The working tree has uncommitted changes; commit or stash them first.');
    }
    await git(ctx, ['fetch', '--tags', 'origin', branch]);
    const behind = await git(ctx, ['rev-list', '--count', `HEAD..origin/${branch}`]);
    if (behind !== '0') {
      throw new Error(`${branch} is ${behind} commit(s) behind origin/${branch}. Run: git pull --ff-only`);
    }
  });

  await ctx.step('Version is new and greater than every existing release tag', async () => {
    const tags = (await git(ctx, ['tag', '--list', `${tagPrefix}*`])).split('\n').filter(Boolean);
    if (tags.includes(tag)) {
      throw new Error(`Tag ${tag} already exists; a released version is never re-tagged. Choose a new version.`);
    }
    const released = tags
      .map((t) => parseSemver(t.slice(tagPrefix.length)))
      .filter((v) => v !== null)
      .sort(compareSemver);
    const latest = released[released.length - 1];
    if (latest && compareSemver(wanted, latest) <= 0) {
      const shown = `${latest.major}.${latest.minor}.${latest.patch}${latest.pre ? '-' + latest.pre : ''}`;
      throw new Error(`${version} is not greater than the latest release ${shown}.`);
    }
    ctx.log(latest ? `Previous release: ${tagPrefix}${latest.major}.${latest.minor}.${latest.patch}` : 'First release.');
  });

  await ctx.step(`Tests pass (${testCommand})`, async () => {
    const [cmd, ...args] = testCommand.split(/\s+/).filter(Boolean);
    const res = await ctx.exec(cmd, args, { timeoutSeconds: 1800 });
    if (res.code !== 0) {
      throw new Error(`${testCommand} exited ${res.code}. Fix the failures before releasing.\n${res.stderr.slice(-2000)}`);
    }
  });

  await ctx.step(`${changelog} has an entry for ${version}`, async () => {
    const text = await ctx.readFile(changelog);
    if (text === null) {
      throw new Error(`${changelog} does not exist. Add it with a section for ${version}.`);
    }
    const heading = new RegExp(`^#+\\s*\\[?${version.replace(/\./g, '\\.')}\\]?(\\s|$)`, 'm');
    if (!heading.test(text)) {
      throw new Error(`${changelog} has no heading for ${version}. Add one describing what changed for users.`);
    }
  });

  await ctx.step(`Create annotated tag ${tag}`, async () => {
    await git(ctx, ['tag', '--annotate', tag, '--message', `Release ${version}`]);
  });

  await ctx.step(`Push ${tag} to origin`, async () => {
    const ok = await ctx.confirm(`Push tag ${tag} to origin? This publishes the release.`);
    if (!ok) {
      ctx.log(`Not pushed. The tag exists locally; push later with: git push origin ${tag}, or delete it with: git tag -d ${tag}`);
      return;
    }
    await git(ctx, ['push', 'origin', tag]);
  });

  return { version, tag };
}
