package selfupdate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// prefixTimeout bounds `npm prefix -g`, which only reads configuration.
const prefixTimeout = 30 * time.Second

// maxPrefix bounds the output of `npm prefix -g`.
const maxPrefix = 64 << 10

// Run runs program (an absolute path) with args, as an argument array and
// without a shell, in dir when it is not empty, with its output passed
// through to stdout and stderr.
func Run(ctx context.Context, program string, args []string, dir string, stdout, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, stdout, stderr
	return cmd.Run()
}

// GlobalPrefix runs `npm prefix -g` with the npm at the absolute path npm
// and returns the folder it prints.
func GlobalPrefix(ctx context.Context, npm string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, prefixTimeout)
	defer cancel()
	var out, errOut limitedBuffer
	cmd := exec.CommandContext(ctx, npm, "prefix", "--global")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return "", fmt.Errorf("%s prefix --global: %w: %s", npm, err, firstLine(msg))
		}
		return "", fmt.Errorf("%s prefix --global: %w", npm, err)
	}
	prefix := strings.TrimSpace(out.String())
	if prefix == "" || strings.ContainsAny(prefix, "\n\x00") {
		return "", errors.New(npm + " prefix --global printed no single folder")
	}
	return prefix, nil
}

// limitedBuffer keeps the first maxPrefix bytes written to it.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxPrefix - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
