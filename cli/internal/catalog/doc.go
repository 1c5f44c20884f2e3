// Package catalog derives, checks and queries skill catalogs.
//
// A catalog file (skills-catalog.json, see Catalog) is a derived inventory of
// a collection folder: one Entry per valid package with its name, path,
// description, version, keywords and package digest, sorted, in canonical
// bytes and without time stamps, so that building it twice gives the same
// bytes. Build derives it, Diff names every difference between two catalogs
// (the CI freshness gate), and Encode and Decode are its only codec.
//
// Queries run over what is installed (ScanInstalled reads only the bounded
// front matter of each installed SKILL.md, never following a symbolic link)
// and over registry indexes: Search ranks both with the registry's search,
// Overview renders a bounded list, and ReadDir and ReadFS serve SKILL.md or a
// Markdown file under references/ of one package, refusing every path that
// could leave it (CheckResource).
//
// Errors carry stable codes: ASK_CATALOG_STALE, ASK_CATALOG_READ_DENIED,
// ASK_CATALOG_NOT_FOUND and ASK_VALIDATION_FAILED.
package catalog
