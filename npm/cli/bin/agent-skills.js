#!/usr/bin/env node
// The launcher of the agent-skills npm package: it runs the Go binary that
// the platform package for this machine carries (an optional dependency,
// installed by npm for the matching os and cpu only), with the same
// arguments, standard streams and exit status. Nothing is downloaded here.
"use strict";

const childProcess = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

// The main package's folder: self-update reads its package.json and tells a
// global install from a project's by where it is.
const packageDir = path.resolve(__dirname, "..");

function fail(message, tries) {
  process.stderr.write("agent-skills: error: " + message + "\n");
  for (const t of tries) process.stderr.write("  Try: " + t + "\n");
  process.exit(1);
}

function readManifest() {
  try {
    return JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"));
  } catch (err) {
    fail("cannot read " + path.join(packageDir, "package.json") + ": " + err.message,
      ["reinstall the package: npm install @agent-skills/cli"]);
  }
}

// binaryPath finds the binary of the platform package "<name>-<platform>-<arch>",
// e.g. @agent-skills/cli-linux-x64, that this package lists.
function binaryPath(manifest) {
  const platform = process.platform + "-" + process.arch;
  const pkg = manifest.name + "-" + platform;
  const optional = manifest.optionalDependencies || {};
  if (!Object.prototype.hasOwnProperty.call(optional, pkg)) {
    const supported = Object.keys(optional).map((n) => n.slice(manifest.name.length + 1)).sort();
    fail("agent-skills has no prebuilt binary for " + platform + " (there are: " + supported.join(", ") + ")",
      ["go install github.com/agent-skills/agent-skills/cli/cmd/agent-skills@latest (needs Go 1.26)"]);
  }
  const exe = process.platform === "win32" ? "agent-skills.exe" : "agent-skills";
  try {
    return require.resolve(pkg + "/bin/" + exe, { paths: [packageDir] });
  } catch (err) {
    fail("the package " + pkg + "@" + optional[pkg] + ", which carries the binary for " + platform + ", is not installed",
      ["install without --omit=optional or --no-optional: npm install " + manifest.name + "@" + manifest.version,
        "or download the archive for " + platform + " from https://github.com/agent-skills/agent-skills/releases"]);
  }
}

function main() {
  const manifest = readManifest();
  const bin = binaryPath(manifest);
  const env = Object.assign({}, process.env, { AGENT_SKILLS_NPM_PACKAGE: packageDir });
  // Asynchronous, so that the signals this process receives can be passed
  // on and this process outlives the binary's own clean-up.
  const child = childProcess.spawn(bin, process.argv.slice(2), { stdio: "inherit", env, windowsHide: false });
  const forward = {};
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGBREAK"]) {
    // Every signal is passed on, even the ones the binary has already had.
    // A signal sent to this process alone — SIGTERM from a supervisor, a
    // container runtime or timeout(1), SIGINT from a task runner such as
    // concurrently or an editor's stop button — reaches the binary only
    // through here, and this process cannot tell such a signal from a
    // terminal's Ctrl-C, which goes to the whole foreground process group:
    // this process, npm and npx when they ran it, and the binary itself.
    // So one Ctrl-C can reach the binary two or three times within a few
    // milliseconds. The binary takes signals within 300 ms of the first
    // for copies of it (cli/interrupt.go), so its clean-up is not cut
    // short, and a second Ctrl-C after that still ends it. Not forwarding
    // SIGINT would lose the task runner's; starting the binary in a process
    // group of its own would take the terminal from it (its prompts would
    // stop with SIGTTIN).
    forward[sig] = () => {
      try { child.kill(sig); } catch (_) { /* already gone */ }
    };
    try { process.on(sig, forward[sig]); } catch (_) { /* not on this platform */ }
  }
  child.on("error", (err) => {
    fail("cannot run " + bin + ": " + err.message,
      ["reinstall the package: npm install " + manifest.name + "@" + manifest.version]);
  });
  child.on("exit", (code, signal) => {
    for (const sig of Object.keys(forward)) process.removeListener(sig, forward[sig]);
    if (signal) {
      // Die of the same signal, so that the caller sees what the binary saw.
      // Should the signal not end this process, exit as a shell reports it.
      process.kill(process.pid, signal);
      setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 500);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

main();
