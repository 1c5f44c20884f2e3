// Package registry reads skill registries: the index document, the
// canonical integrity digest of a package, and the local, git, http and
// bundled registry kinds behind one interface.
package registry
