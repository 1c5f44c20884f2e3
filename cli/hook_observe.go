package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/cli/internal/evidence"
	"github.com/agent-skills/agent-skills/cli/internal/readhook"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

type hookObserveCmd struct {
	Host string `required:"" help:"The host running the hook: claude, codex, copilot or gemini."`
	DB   string `name:"db" help:"The evidence store (default: $AGENT_SKILLS_USAGE_DB, else <state root>/skills-usage.db)."`
}

func (c *hookObserveCmd) Help() string {
	return `Run by the host after a tool call (Claude Code and Codex: PostToolUse, Gemini CLI:
AfterTool, Copilot CLI: postToolUse) with the event on stdin. When the event is a
successful read of a Markdown file of an installed skill — Codex: a literal
"cat PATH" or "sed -n 'A,Bp' PATH" whose output is the current SKILL.md — it records
one read observation (skill, file, digest, host, session, time; never the file's
body or the command) in the evidence store, creating the store if needed. Any other
event only notes, in an existing store, that the host's hook ran today. A read is a
count, not a sign the skill was used. It never blocks the agent: on any failure it
prints one line on stderr and the host's neutral output, exits 0, and gives up after
2 seconds. See docs/evidence-hooks.md.

Examples:
  agent-skills hook observe --host claude
  agent-skills hook observe --host codex --db ~/.agents/skills-usage.db`
}

// readNeutral is what a read hook prints on stdout: nothing, which Claude
// Code, Codex and Copilot CLI accept after a tool (captured with the real
// agents), and {} for Gemini CLI, whose hooks must print only JSON.
func readNeutral(host string) string {
	if host == "gemini" {
		return "{}\n"
	}
	return ""
}

func (c *hookObserveCmd) Run(e *env) error {
	fail := func(err error) error {
		msg := ui.OneLine(err.Error())
		if !strings.Contains(msg, "(ASK_") {
			msg += " (" + askerr.CodeOf(err) + ")"
		}
		fmt.Fprintf(e.Err, "agent-skills hook observe: %s\n", msg)
		fmt.Fprint(e.Out, readNeutral(c.Host))
		return nil
	}
	if !validHost(c.Host) {
		return fail(askerr.Usage("unknown host %q: use claude, codex, copilot or gemini", c.Host))
	}
	ctx, cancel := context.WithTimeout(e.ctx, hookTimeout)
	defer cancel()
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("internal error: %v", r)
			}
		}()
		done <- c.observe(e.withContext(ctx))
	}()
	select {
	case err := <-done:
		if err != nil {
			return fail(err)
		}
		fmt.Fprint(e.Out, readNeutral(c.Host))
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fail(errors.New("gave up after " + hookTimeout.String()))
		}
		return fail(ctx.Err())
	}
	return nil
}

func validHost(h string) bool {
	for _, x := range readhook.Hosts {
		if h == x {
			return true
		}
	}
	return false
}

// observe records the event on stdin when it is a verified read of an
// installed skill's file, else notes the host's activity in an existing
// store.
func (c *hookObserveCmd) observe(e *env) error {
	if e.stdin == nil {
		return askerr.Usage("no hook payload on stdin")
	}
	payload, err := io.ReadAll(io.LimitReader(e.stdin, readhook.MaxPayload+1))
	if err != nil {
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot read the hook payload on stdin", Err: err}
	}
	cand, err := readhook.Parse(c.Host, payload)
	payload = nil
	if errors.Is(err, readhook.ErrNotRead) {
		return c.noteSeen(e)
	}
	if err != nil {
		_ = c.noteSeen(e)
		return &askerr.Error{Code: evidence.CodeInvalid, Message: err.Error()}
	}
	skills, err := c.installed(e)
	if err != nil {
		return err
	}
	obs, err := readhook.Confine(cand, skills)
	cand.Returned = nil // the command's output is never kept
	if errors.Is(err, readhook.ErrNotSkill) {
		return c.noteSeen(e)
	}
	if err != nil {
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot read the file the host reported", Err: err}
	}
	at := cand.At
	if at.IsZero() {
		at = time.Now().UTC().Truncate(time.Millisecond)
	}
	r := evidence.Read{
		Host: c.Host, EventKey: cand.EventKey, Session: cand.Session, At: at,
		Skill: obs.Skill.Name, Scope: obs.Skill.Scope, Project: obs.Skill.Project,
		File: obs.File, Kind: obs.Kind, Digest: obs.Digest, Version: obs.Skill.Version,
	}
	if err := r.Validate(); err != nil {
		return err
	}
	loc, err := c.locate(e)
	if err != nil {
		return err
	}
	st, err := evidence.OpenWriter(e.ctx, loc)
	if err != nil {
		return err
	}
	_, err = st.RecordRead(e.ctx, r)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return err
}

func (c *hookObserveCmd) locate(e *env) (evidence.Location, error) {
	return evidence.Locate(c.DB, e.ws.Getenv, e.ws.UserHome(), e.ws.Cwd)
}

// noteSeen records, in an existing store only, that the host's hook ran
// today; it never creates the store.
func (c *hookObserveCmd) noteSeen(e *env) error {
	loc, err := c.locate(e)
	if err != nil {
		return err
	}
	st, err := evidence.OpenExisting(e.ctx, loc)
	if errors.Is(err, evidence.ErrNoStore) {
		return nil
	}
	if err != nil {
		return err
	}
	err = st.NoteHostSeen(e.ctx, c.Host, time.Now().UTC())
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return err
}

// installed returns the installed skills the session-index hook lists,
// from the same scan (with skill.yaml, for the version). The scan lists a
// name found in several roots of one scope once, with the first root's
// folder; a host reads its own root's copy (install writes .agents/skills
// and .claude/skills alike), so every root of the scope that holds a
// folder of that name is a place the skill is installed.
func (c *hookObserveCmd) installed(e *env) ([]readhook.InstalledSkill, error) {
	cfg, root, err := e.ws.ConfigAndProject("")
	if err != nil {
		return nil, err
	}
	roots := e.catalogRoots(cfg, root)
	skills, err := e.scanInstalled(roots, true)
	if err != nil {
		return nil, err
	}
	var out []readhook.InstalledSkill
	for _, s := range skills {
		if s.Dir == "" {
			continue
		}
		is := readhook.InstalledSkill{Name: s.Name, Version: s.Version}
		switch s.Source {
		case catalog.InstalledSource("project"):
			is.Scope, is.Project = "project", root
		case catalog.InstalledSource("global"):
			is.Scope = "global"
		default:
			continue
		}
		folder := filepath.Base(s.Dir)
		for _, r := range roots {
			if r.Scope != is.Scope {
				continue
			}
			dir := filepath.Join(r.Path, folder)
			if dir != s.Dir {
				if fi, err := os.Lstat(dir); err != nil || (!fi.IsDir() && fi.Mode()&os.ModeSymlink == 0) {
					continue
				}
			}
			is.Root, is.Dir = r.Path, dir
			out = append(out, is)
		}
	}
	return out, nil
}
