// Package testscripts holds the end-to-end tests of the agent-skills binary,
// written as testscript (txtar) files under testdata/ and run in an isolated
// HOME so that no real agent configuration on the machine can leak in.
package testscripts
