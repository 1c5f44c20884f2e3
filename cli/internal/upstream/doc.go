// Package upstream records where a collection's skills came from and
// tells a maintainer what changed there since.
//
// upstreams.lock.json, at a collection's root, has one entry per local
// package derived from a public upstream skill: the local package path;
// the upstream's repository, the skill's folder in it, the ref followed
// and the commit it resolved to; the upstream file set captured at that
// commit (snapshot.CapturePackage, so per-file digests and the canonical
// package digest follow the same rules as every other capture); and the
// licence that applies — inside the package, its path and digest; outside
// it (a LICENSE at the repository's root), also its bytes.
//
// Record captures an upstream skill for a lock entry. Check resolves each
// entry's ref again, captures the upstream under the same rules and
// compares: files added, changed and removed, the package digest, and the
// licence (bytes changed, moved, removed, or one appearing), each changed
// path mapped to the local package's file of the same path and whether
// that file still equals the recorded upstream version. Check never
// writes: not to the local packages, not to the lock. An entry that cannot
// be checked (the network, a vanished ref) is reported with its own code
// and the others are still checked.
//
// The package reads the local collection through fs.FS and upstreams
// through the Fetcher interface; Git implements it over the hardened git
// of package source. Decode parses a lock with a size limit and refuses
// anything a Record could not have written.
package upstream
