package registry

import "testing"

// TestSingleVersionKeepsNoSemver: a skill with one version keeps no
// parsed form of it once the index is decoded (there is nothing to sort
// it against; 10,000 of them are 1 MB), yet its latest version and
// Semver are as before.
func TestSingleVersionKeepsNoSemver(t *testing.T) {
	doc := []byte(`schemaVersion: 1
name: team
skills:
  - name: one
    description: One.
    versions:
      - version: 1.2.3
        path: skills/one
        integrity: sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=
  - name: two
    description: Two.
    versions:
      - version: 1.0.0
        path: skills/two
        integrity: sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=
      - version: 2.0.0
        path: skills/two
        integrity: sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=
`)
	idx, err := DecodeIndex(doc, "skills.yaml")
	if err != nil {
		t.Fatal(err)
	}
	one, _ := idx.Skill("one")
	if v := one.Versions[0]; v.sv != nil || one.Latest != "1.2.3" || v.Semver() == nil || v.Semver().String() != "1.2.3" {
		t.Errorf("one: kept parsed %v, latest %q, Semver %v; want none kept, 1.2.3, 1.2.3", v.sv != nil, one.Latest, v.Semver())
	}
	two, _ := idx.Skill("two")
	if s := two.Sorted(); two.Latest != "2.0.0" || s[0].Version != "2.0.0" {
		t.Errorf("two: latest %q, sorted first %s; want 2.0.0", two.Latest, s[0].Version)
	}
}
