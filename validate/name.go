package validate

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// CheckName reports whether name follows the package-name grammar of
// format.CheckName: 1 to 64 characters of lowercase ASCII letters, digits
// and hyphens, no hyphen at either end, no "--"; "@" and "/" are reserved
// for scoped names (@org/skill). It returns nil or a *Problem with code
// ASK_NAME_INVALID whose message lists every broken rule and whose fix
// suggests a valid name.
func CheckName(name string) error {
	reasons := format.CheckName(name)
	if len(reasons) == 0 {
		return nil
	}
	return &Problem{
		Code:    CodeNameInvalid,
		Message: fmt.Sprintf("name %q %s", name, strings.Join(reasons, "; ")),
		Fix:     nameFix(name),
	}
}

// nameFix suggests a valid name derived from name, or a generic fix when
// no valid name can be derived.
func nameFix(name string) string {
	if s := format.SuggestName(name); s != "" && s != name {
		return fmt.Sprintf("rename it to %q (lowercase letters, digits and single hyphens, 1-%d characters)", s, format.MaxNameLen)
	}
	return fmt.Sprintf("use 1-%d lowercase letters, digits and single hyphens, starting and ending with a letter or digit", format.MaxNameLen)
}
