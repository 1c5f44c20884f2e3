package format

import "strings"

// Person is a package author or contributor.
type Person struct {
	// Name is the person's or organisation's name.
	Name string
	// Email is a contact address.
	Email string
	// URL is a home page.
	URL string
}

// String renders the person in the short form "Name <email> (url)".
func (p Person) String() string {
	var b strings.Builder
	b.WriteString(p.Name)
	if p.Email != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("<" + p.Email + ">")
	}
	if p.URL != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("(" + p.URL + ")")
	}
	return b.String()
}

// ParsePerson reads the short author form "Name <email> (url)", where the
// email and URL parts are optional.
func ParsePerson(s string) Person {
	var p Person
	rest := s
	if i := strings.IndexByte(rest, '('); i >= 0 {
		if j := strings.IndexByte(rest[i:], ')'); j > 0 {
			p.URL = strings.TrimSpace(rest[i+1 : i+j])
			rest = rest[:i] + rest[i+j+1:]
		}
	}
	if i := strings.IndexByte(rest, '<'); i >= 0 {
		if j := strings.IndexByte(rest[i:], '>'); j > 0 {
			p.Email = strings.TrimSpace(rest[i+1 : i+j])
			rest = rest[:i] + rest[i+j+1:]
		}
	}
	p.Name = strings.Join(strings.Fields(rest), " ")
	return p
}
