// Package resolve chooses the versions of skills to install: it intersects
// the version ranges that requests and dependencies place on each name, picks
// the highest satisfying published version, backtracks when a choice leads to
// a conflict, and explains conflicts and cycles with the full requirement
// chain. It reads registries only through a small interface.
package resolve
