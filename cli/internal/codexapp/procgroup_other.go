//go:build !unix

package codexapp

import "os/exec"

// setProcessGroup leaves the default: the context's cancellation kills
// the started process.
func setProcessGroup(cmd *exec.Cmd) {}
