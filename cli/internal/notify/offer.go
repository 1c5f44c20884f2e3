package notify

import (
	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/registry"
)

// maxOfferVersions bounds the versions an Offer keeps for the details.
const maxOfferVersions = 20

// maxOfferDescription bounds the description kept, in bytes.
const maxOfferDescription = 300

// Offer is what a registry offers of one skill: its newest release that
// is neither deprecated nor a prerelease (Version, "" when there is
// none), and for the details the skill's description and its newest
// such releases, newest first.
type Offer struct {
	Version     string         `json:"version,omitempty"`
	Description string         `json:"description,omitempty"`
	Versions    []OfferVersion `json:"versions,omitempty"`
}

// OfferVersion is one release of an Offer.
type OfferVersion struct {
	Version     string `json:"version"`
	PublishedAt string `json:"publishedAt,omitempty"`
}

// OfferOf reads the offer of an index entry; nil (a skill the registry no
// longer lists) offers nothing.
func OfferOf(sk *registry.Skill) Offer {
	if sk == nil {
		return Offer{}
	}
	o := Offer{Description: truncate(sk.Description, maxOfferDescription)}
	for _, v := range sk.Sorted() {
		sv := v.Semver()
		if v.Deprecated || sv == nil || sv.Prerelease() != "" {
			continue
		}
		if o.Version == "" {
			o.Version = v.Version
		}
		o.Versions = append(o.Versions, OfferVersion{Version: v.Version, PublishedAt: v.PublishedAt})
		if len(o.Versions) == maxOfferVersions {
			break
		}
	}
	return o
}

// Newer reports whether the offer's release is newer than installed.
func (o Offer) Newer(installed string) bool {
	return Newer(o.Version, installed)
}

// Since lists the offered releases newer than installed, newest first.
func (o Offer) Since(installed string) []OfferVersion {
	var out []OfferVersion
	for _, v := range o.Versions {
		if Newer(v.Version, installed) {
			out = append(out, v)
		}
	}
	return out
}

// OutsideCaret reports whether version v is outside ^installed: a new
// major version (for 0.x, a new minor; for 0.0.x, a new patch), which
// may break what the skill's users rely on and needs its own
// confirmation.
func OutsideCaret(installed, v string) bool {
	c, err := semver.NewConstraint("^" + installed)
	if err != nil {
		return true
	}
	sv, err := semver.StrictNewVersion(v)
	if err != nil {
		return true
	}
	return !c.Check(sv)
}

// Move is what an update preview does to one skill: from one version to
// another.
type Move struct {
	Name, From, To string
}

// Unapproved returns the moves of a preview that the user did not agree
// to by accepting target's notice: a downgrade of any skill, and a move
// of another skill outside ^its version. An accepted notice updates one
// skill; anything larger is for "agent-skills update" to show and ask.
func Unapproved(moves []Move, target string) []Move {
	var out []Move
	for _, m := range moves {
		if m.From == "" || m.To == "" || m.From == m.To {
			continue
		}
		if Newer(m.From, m.To) || (m.Name != target && OutsideCaret(m.From, m.To)) {
			out = append(out, m)
		}
	}
	return out
}

// Newer reports whether a is a strictly higher version than b; a version
// that does not parse is never newer.
func Newer(a, b string) bool {
	va, err := semver.StrictNewVersion(a)
	if err != nil {
		return false
	}
	vb, err := semver.StrictNewVersion(b)
	if err != nil {
		return false
	}
	return va.GreaterThan(vb)
}

// truncate cuts s to at most n bytes at a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
