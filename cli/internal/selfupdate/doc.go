// Package selfupdate tells how this agent-skills binary was installed and
// what replaces it with another release: the npm, Homebrew or go command,
// or the release archive to download.
//
// Detect is pure: it reads the executable's path (symbolic links
// resolved), the environment, the binary's build information, a few small
// files through a bounded reader, and the answer of `npm prefix -g` when
// it needs it. Every conclusion carries its evidence, the facts a person
// can check. PlanFor turns an installation and a target release into a
// Plan: either a command — an argument array, run by Run without a shell —
// or manual instructions. The methods:
//
//   - npm: the npm launcher sets AGENT_SKILLS_NPM_PACKAGE to the folder
//     of the wrapper package. Under `npm prefix -g`'s node_modules it is a
//     global install (npm install -g NAME@V); in PROJECT/node_modules and
//     listed in PROJECT/package.json it is a direct local dependency,
//     updated in the same dependency category and with --save-exact when
//     the spec was exact. Anything else (npx's cache, a dependency of a
//     dependency, a pnpm, yarn or bun project) gets instructions.
//   - Homebrew: the executable resolves into PREFIX/Cellar/FORMULA/VERSION/bin
//     (brew upgrade TAP/FORMULA, with PREFIX/bin/brew).
//   - go install: the build information names this module at a released
//     version with no version-control stamp, and the binary is in GOBIN or
//     GOPATH/bin (instructions: go install …@vX.Y.Z).
//   - a development build (a -dev version: make install, go build): say so.
//   - anything else is a release archive: the archive's URL for this
//     os/arch and checksums.txt.
package selfupdate
