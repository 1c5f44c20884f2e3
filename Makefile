# One list of modules drives every target. go test ./... does not work at a
# workspace root, so each target walks the modules itself.
MODULES := format validate scan resolve agents registry scaffold cli testscripts skills tools/release
GO ?= go
FUZZTIME ?= 2000x
BENCHTIME ?= 1x

.PHONY: all install build test vet cross fmt-check unit fuzz fuzz-long bench bench-observe bench-registry bench-coldstart bench-peers e2e-agents e2e-mcp e2e-setup e2e-plugin e2e-codex-trust e2e-sep2640 e2e-evidence e2e-completion e2e-notify release-check dist npm-pack npm-test tidy clean

all: test

# The binary is built without cgo: nothing in it needs C (net's resolver and
# os/user, pulled in by kong and archive/tar, have pure Go versions), and a
# static binary skips the dynamic loader and libc's pages — about 1.5 MiB
# of peak RSS and 5 % of every start. Tests keep cgo: -race needs it.
BUILD := CGO_ENABLED=0

# --version's commit and date: HEAD (with -dirty for uncommitted changes) and
# its commit date, so that a build of one commit is the same on any day.
COMMIT := $(shell c=$$(git rev-parse --short=7 HEAD 2>/dev/null) && { git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; echo $$c; })
DATE := $(shell git log -1 --format=%cs 2>/dev/null)
LDFLAGS := -X github.com/agent-skills/agent-skills/cli.Commit=$(COMMIT) -X github.com/agent-skills/agent-skills/cli.Date=$(DATE)

## install: put agent-skills on the PATH (go install into $(shell $(GO) env GOPATH)/bin)
install:
	cd cli && $(BUILD) $(GO) install -ldflags '$(LDFLAGS)' ./cmd/agent-skills
	@echo "installed $$(command -v agent-skills || echo "$$($(GO) env GOPATH)/bin/agent-skills (add it to PATH)")"

build:
	mkdir -p bin && cd cli && $(BUILD) $(GO) build -ldflags '$(LDFLAGS)' -o ../bin/agent-skills ./cmd/agent-skills

## test: everything CI runs — vet, gofmt, every module's tests with -race and
## GOWORK=off, a short run of every fuzz target, and the testscript suites.
test: fmt-check vet cross unit fuzz release-check

## release-check: a release of this tree, bumped to VERSION in a copy and
## served from a file-system module proxy, imports and runs its Examples
## from a module outside the repository (docs/modules.md).
RELEASE_CHECK_VERSION ?= 0.0.1-check
release-check:
	@GO=$(GO) ./scripts/release-check.sh $(if $(VERSION),$(VERSION),$(RELEASE_CHECK_VERSION))

fmt-check:
	@out=$$(gofmt -l $(MODULES)); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	@set -e; for m in $(MODULES); do echo "vet $$m"; (cd $$m && GOWORK=off $(GO) vet ./...); done

## cross: every module, its tests included, compiles for the release platforms
## other than this one (windows, darwin), so that a unix-only call cannot slip
## in unnoticed: go vet type-checks the test files that go build skips.
cross:
	@set -e; for os in windows darwin; do for m in $(MODULES); do echo "vet $$m for $$os"; (cd $$m && CGO_ENABLED=0 GOOS=$$os GOARCH=arm64 GOWORK=off $(GO) vet ./...); done; done

## unit: every module's tests with the race detector. The testscripts suite runs each
## script's agent-skills under -race too, about nine minutes on two shared cores: past go
## test's default 10-minute limit, so the limit is raised (CI's whole run has 90).
unit:
	@set -e; for m in $(MODULES); do echo "test $$m"; (cd $$m && GOWORK=off $(GO) test -race -count=1 -timeout 30m ./...); done

fuzz:
	@FUZZTIME=$(FUZZTIME) GO=$(GO) ./scripts/fuzz.sh $(MODULES)

## fuzz-long: every fuzz target for 60 s each (about half an hour; not run by CI)
fuzz-long:
	@FUZZTIME=60s GO=$(GO) ./scripts/fuzz.sh $(MODULES)

## bench: the benchmarks every issue names (not run by CI)
bench:
	@set -e; for m in $(MODULES); do (cd $$m && GOWORK=off $(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) ./... | grep -E '^(Benchmark|ok|FAIL|---)' || true); done
	./scripts/bench-observe.sh

## bench-observe: 20 parallel workers x 500 "hook observe" processes into one store: 10,000 rows, wall, per-hook median/p95 (not in CI)
bench-observe:
	./scripts/bench-observe.sh

## bench-registry: registry installs of 50, 500 and 10,000 skills, origin/main vs the work tree, wall and peak RSS (not in CI)
bench-registry:
	./scripts/bench-registry.sh

## bench-coldstart: --version and list as whole processes, BASE_REF (default 47a1101, before the notifier) vs the work tree, paired (not in CI)
bench-coldstart:
	./scripts/bench-coldstart.sh

## bench-peers: agent-skills vs vercel skills (pinned, from npm) vs cp -r, side by side (needs npm; not in CI)
bench-peers:
	./scripts/bench-peers/bench-peers.sh

## e2e-agents: install a skill for every subset of Claude Code, Codex, Copilot CLI, Gemini CLI and OpenCode and ask the real agents what they see; AGENTS_LATEST=1 for the newest npm versions (needs npm; not in CI)
e2e-agents:
	AGENTS_LATEST=$(AGENTS_LATEST) ./scripts/e2e-agents.sh

## e2e-mcp: drive `agent-skills mcp serve` with the MCP Inspector's CLI from npm (needs npm; not in CI)
e2e-mcp:
	./scripts/e2e-mcp.sh

## e2e-setup: `setup enable --write` in a scratch HOME for Claude Code, OpenCode, Gemini CLI, Copilot CLI and Codex (hook trusted through codex app-server); the real agents must run our hook and offer our MCP tools, and `setup disable` must take them out (needs npm; not in CI)
e2e-setup:
	./scripts/e2e-setup.sh

## e2e-plugin: build the bundled collection as plugins, validate them with the real `claude plugin validate`, install into the real Claude Code and check that it lists the skills (needs npm; not in CI)
e2e-plugin:
	./scripts/e2e-plugin.sh

## e2e-codex-trust: trust a hook through the real `codex app-server` and tomledit, and show `codex exec` runs it (needs npm; not in CI)
e2e-codex-trust:
	./scripts/e2e-codex-trust.sh

## e2e-sep2640: the MCP Inspector's --verify and `install mcp:` agree on every mode of the SEP-2640 fixture server (needs npm and python3; not in CI)
e2e-sep2640:
	./scripts/e2e-sep2640.sh

## e2e-evidence: the real Claude Code, Codex, Gemini CLI and Copilot CLI read an installed SKILL.md (a fake model API on loopback asks for one read); `hook observe` must leave exactly one observation per host in the store (needs npm and python3; not in CI)
e2e-evidence:
	./scripts/e2e-evidence.sh

## e2e-completion: the completion scripts in real bash, zsh and fish, typed on a tmux terminal (needs tmux; not in CI)
e2e-completion:
	./scripts/completion-test.sh

## e2e-notify: the update notifier's CLI and skill release menus, answered on a tmux terminal; prints each screen (needs tmux and python3; not in CI)
e2e-notify:
	./scripts/notify-tmux.sh

## dist: the release archives for every platform, checksums.txt, the Homebrew
## formula and releases.json in dist/, as a snapshot (GoReleaser, pinned here,
## built once into .tools/bin; docs/release.md). Two runs give the same bytes.
GORELEASER_VERSION := v2.15.1
dist:
	GO=$(GO) GORELEASER_VERSION=$(GORELEASER_VERSION) ./scripts/dist.sh

## npm-pack: the npm packages (the launcher and one per platform) from dist/ into dist/npm/*.tgz (needs npm)
npm-pack:
	./scripts/npm-pack.sh

## npm-test: install the packed tarballs into an empty folder and run npx agent-skills (needs npm; not in CI)
npm-test:
	./scripts/npm-test.sh

tidy:
	@set -e; for m in $(MODULES); do (cd $$m && GOWORK=off $(GO) mod tidy); done

clean:
	rm -rf bin dist .release
