// Package validate checks an agent skill package against every rule of the
// package format and of the Agent Skills specification, and reports every
// problem at once as format.Diagnostics. It is pure: packages come in as
// values over an fs.FS, and agent knowledge (the agentOverrides allowlist)
// is passed in by the caller.
package validate
