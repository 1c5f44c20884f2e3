package gitrun

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const (
	// DefaultTimeout bounds one git command when its context has no
	// deadline.
	DefaultTimeout = 5 * time.Minute
	// DefaultMaxOutput caps a command's standard output: ls-remote of a
	// hostile server must not fill the memory.
	DefaultMaxOutput = 32 << 20
	// DefaultMaxStderr is how much of a command's standard error is kept
	// for its error message.
	DefaultMaxStderr = 64 << 10
	// waitDelay is how long Run waits for git's children (ssh, remote
	// helpers) to release its pipes after git itself was stopped.
	waitDelay = 10 * time.Second
	// pollEvery is how often the working folder's size is measured while
	// a command runs under Options.MaxBytes.
	pollEvery = 100 * time.Millisecond
)

var (
	// ErrNotInstalled is returned by New when the git executable cannot be
	// found.
	ErrNotInstalled = errors.New("git is not installed")
	// ErrOutputTooLarge is the cause of a CommandError whose standard
	// output passed Options.MaxOutput.
	ErrOutputTooLarge = errors.New("git printed more than the output limit")
	// ErrTooLarge is the cause of a CommandError stopped because the
	// working folder passed Options.MaxBytes.
	ErrTooLarge = errors.New("the repository is larger than the size limit")
)

// Config is one configuration entry passed to git through the
// environment (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n), so
// that it never appears on a command line another user could read.
type Config struct {
	Key, Value string
}

// Options configures a Runner.
type Options struct {
	// Git is the git executable, a name looked up on PATH or a path; ""
	// means "git".
	Git string
	// Dir is the folder every command runs in.
	Dir string
	// URL is the remote the commands talk to; it must pass CheckURL and
	// decides which protocols git may use. "" means commands that use no
	// remote.
	URL string
	// Env is the environment to start from, normally the process's; it is
	// scrubbed with Environ. nil means an empty environment.
	Env []string
	// Config holds entries passed through the environment, such as an
	// http.<url>.extraHeader carrying a token. Their values are scrubbed
	// from every error.
	Config []Config
	// Secrets are further strings scrubbed from every error (tokens).
	Secrets []string
	// Timeout bounds each command when its context has no deadline; 0
	// means DefaultTimeout.
	Timeout time.Duration
	// MaxOutput caps each command's standard output in bytes; 0 means
	// DefaultMaxOutput.
	MaxOutput int64
	// MaxBytes, when positive, caps the size of the regular files under
	// Dir while a command runs: the command is stopped with ErrTooLarge
	// once they pass it.
	MaxBytes int64
}

// Runner runs git commands for one remote in one folder with the
// protections the package documents. It is safe for sequential use; a
// Runner's fields must not change after New.
type Runner struct {
	git     string
	dir     string
	url     string
	proto   string
	env     []string
	secrets []string
	timeout time.Duration
	maxOut  int64
	maxDisk int64
}

// New checks opts.URL with CheckURL (a *URLError when it is refused) and
// finds git (ErrNotInstalled when it cannot be).
func New(opts Options) (*Runner, error) {
	r := &Runner{dir: opts.Dir, url: opts.URL, timeout: opts.Timeout, maxOut: opts.MaxOutput, maxDisk: opts.MaxBytes}
	if opts.URL != "" {
		proto, err := CheckURL(opts.URL)
		if err != nil {
			return nil, err
		}
		r.proto = proto
	}
	name := opts.Git
	if name == "" {
		name = "git"
	}
	git, err := exec.LookPath(name)
	if err != nil {
		return nil, ErrNotInstalled
	}
	r.git = git
	if r.timeout <= 0 {
		r.timeout = DefaultTimeout
	}
	if r.maxOut <= 0 {
		r.maxOut = DefaultMaxOutput
	}
	r.env = Environ(opts.Env)
	if len(opts.Config) > 0 {
		r.env = append(r.env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(opts.Config)))
		for i, c := range opts.Config {
			n := strconv.Itoa(i)
			r.env = append(r.env, "GIT_CONFIG_KEY_"+n+"="+c.Key, "GIT_CONFIG_VALUE_"+n+"="+c.Value)
			r.secrets = append(r.secrets, c.Value)
		}
	}
	r.secrets = append(r.secrets, opts.Secrets...)
	return r, nil
}

// URL returns the remote the Runner was made for.
func (r *Runner) URL() string { return r.url }

// Dir returns the folder the commands run in.
func (r *Runner) Dir() string { return r.dir }

// Scrub removes the Runner's secrets and any URL user information from s.
func (r *Runner) Scrub(s string) string { return Scrub(s, r.secrets) }

// CommandError is a git command that failed.
type CommandError struct {
	// Command is the git subcommand ("fetch", "checkout").
	Command string
	// Stderr is its standard error, trimmed and scrubbed of credentials.
	Stderr string
	// Err is the cause: the exit status, a context error, ErrTooLarge or
	// ErrOutputTooLarge.
	Err error
}

// Error returns "git", the subcommand and the first line of its standard
// error, or the cause when git wrote nothing.
func (e *CommandError) Error() string {
	msg, _, _ := strings.Cut(e.Stderr, "\n")
	if msg == "" {
		msg = e.Err.Error()
	}
	return "git " + e.Command + ": " + msg
}

// Unwrap returns the cause.
func (e *CommandError) Unwrap() error { return e.Err }

// Run runs git with ConfigArgs before args in the Runner's folder and
// returns its standard output. The caller ends option parsing before
// every ref, path and remote it passes (--end-of-options, or -- after a
// revision); a failure is a *CommandError.
func (r *Runner) Run(ctx context.Context, args ...string) (string, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.timeout)
		defer cancel()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var over atomic.Bool // the folder passed MaxBytes
	if r.maxDisk > 0 {
		stop := r.watch(ctx, cancel, &over)
		defer stop()
	}
	cmd := exec.CommandContext(ctx, r.git, append(ConfigArgs(r.proto), args...)...)
	cmd.Dir = r.dir
	cmd.Env = r.env
	cmd.WaitDelay = waitDelay
	stdout := &capped{max: r.maxOut, onOver: cancel}
	stderr := &capped{max: DefaultMaxStderr, keep: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if err == nil && !stdout.exceeded() {
		return stdout.String(), nil
	}
	cause := err
	switch {
	case over.Load():
		cause = ErrTooLarge
	case stdout.exceeded():
		cause = ErrOutputTooLarge
	case ctx.Err() != nil:
		cause = ctx.Err()
	}
	return "", &CommandError{Command: subcommand(args), Stderr: r.Scrub(strings.TrimSpace(stderr.String())), Err: cause}
}

// subcommand returns the git subcommand in args, after any global options
// such as -c key=value.
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-c" || a == "-C":
			i++
		case !strings.HasPrefix(a, "-"):
			return a
		}
	}
	return "git"
}

// TooLarge reports whether the folder is past Options.MaxBytes now: a
// command can finish between two measurements.
func (r *Runner) TooLarge() bool {
	return r.maxDisk > 0 && dirSize(r.dir) > r.maxDisk
}

// watch measures the folder every pollEvery and, once it passes
// MaxBytes, sets over and cancels the command. The returned function
// stops it.
func (r *Runner) watch(ctx context.Context, cancel context.CancelFunc, over *atomic.Bool) func() {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(pollEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if dirSize(r.dir) > r.maxDisk {
					over.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// dirSize returns the total size of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// capped is an output buffer with a size limit: past it, it either keeps
// the head silently (keep, for standard error) or calls onOver once and
// fails the write, which closes git's pipe.
type capped struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	max    int64
	keep   bool
	onOver func()
	over   bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - int64(c.buf.Len()); int64(len(p)) > room {
		if c.keep {
			if room > 0 {
				c.buf.Write(p[:room])
			}
			return len(p), nil
		}
		if !c.over {
			c.over = true
			c.onOver()
		}
		return 0, ErrOutputTooLarge
	}
	return c.buf.Write(p)
}

// exceeded reports whether a write was refused.
func (c *capped) exceeded() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.over
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// Init makes the Runner's folder a new repository with no templates (so
// no sample hooks, no inherited info files) and protects it with Protect.
func (r *Runner) Init(ctx context.Context) error {
	if _, err := r.Run(ctx, "init", "-q", "--template="); err != nil {
		return err
	}
	return Protect(filepath.Join(r.dir, ".git"))
}

// Checkout protects the repository again (see Protect) and checks out
// commit, a full commit id, detached and forced, into the work tree.
func (r *Runner) Checkout(ctx context.Context, commit string) error {
	if !IsCommitID(commit) {
		return &RefError{Ref: Quote(commit), Reason: "is not a full commit id"}
	}
	if err := Protect(filepath.Join(r.dir, ".git")); err != nil {
		return err
	}
	// "--" after the commit: it is a revision, and no path follows.
	_, err := r.Run(ctx, "checkout", "-q", "--force", "--detach", commit, "--")
	return err
}

// Resolve returns the full commit id rev names in the repository
// (rev-parse --verify of rev^{commit}).
func (r *Runner) Resolve(ctx context.Context, rev string) (string, error) {
	out, err := r.Run(ctx, "rev-parse", "--verify", "-q", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(out)
	if !IsCommitID(id) {
		return "", &CommandError{Command: "rev-parse", Stderr: "unexpected output " + Quote(id), Err: errors.New("not a commit id")}
	}
	return id, nil
}

// Heads lists the branch names remote advertises (ls-remote --heads), as
// sent: check them with CheckRef, or choose with PickDefault.
func (r *Runner) Heads(ctx context.Context, remote string) ([]string, error) {
	out, err := r.Run(ctx, "ls-remote", "--heads", "--end-of-options", remote)
	if err != nil {
		return nil, err
	}
	return ParseRefs(out, "refs/heads/"), nil
}

// Tags lists the tag names remote advertises (ls-remote --tags --refs),
// as sent: check them with CheckRef before use.
func (r *Runner) Tags(ctx context.Context, remote string) ([]string, error) {
	out, err := r.Run(ctx, "ls-remote", "--tags", "--refs", "--end-of-options", remote)
	if err != nil {
		return nil, err
	}
	return ParseRefs(out, "refs/tags/"), nil
}
