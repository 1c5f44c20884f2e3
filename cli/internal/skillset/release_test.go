package skillset

import (
	"slices"
	"testing"
)

// TestInstallReleasesIndexes: once its packages are fetched, an install no
// longer holds the registries' indexes (thousands of entries for a large
// one): the session's next question reads the index again, and sees what
// was published in between.
func TestInstallReleasesIndexes(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	s := w.open(false, nil)
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"app"}}); err != nil {
		t.Fatalf("Install(app) = %v", err)
	}
	w.publish(pkgSpec{name: "lib", version: "1.2.0"})
	_, vs, err := s.Registries.Versions(t.Context(), "team", "lib")
	if err != nil {
		t.Fatalf("Versions(lib) after Install = %v", err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.Version)
	}
	slices.Sort(got)
	if want := []string{"1.0.0", "1.1.0", "1.2.0"}; !slices.Equal(got, want) {
		t.Errorf("Versions(lib) after Install = %v, want %v (the index read again)", got, want)
	}
}
