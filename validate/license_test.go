package validate

import (
	"strings"
	"testing"
)

func TestCheckLicense(t *testing.T) {
	tests := []struct {
		expr    string
		ok      bool
		warning bool
		want    string
	}{
		{expr: "MIT", ok: true},
		{expr: "Apache-2.0", ok: true},
		{expr: "MIT OR Apache-2.0", ok: true},
		{expr: "(MIT AND BSD-3-Clause) OR Apache-2.0", ok: true},
		{expr: "GPL-2.0-only WITH Classpath-exception-2.0", ok: true},
		{expr: "LicenseRef-Acme-Internal", ok: true},
		{expr: "apache-2.0", ok: true},
		{expr: "UNLICENSED", ok: true},
		{expr: "GPL-2.0", warning: true, want: "deprecated SPDX identifier"},
		{expr: "", want: "license is empty"},
		{expr: "unlicensed", want: "must be written in capitals"},
		{expr: "proprietary", want: "write UNLICENSED"},
		{expr: "Apache 2", want: "is not a valid SPDX licence expression"},
		{expr: "MIT OR", want: "is not a valid SPDX licence expression"},
		{expr: "Foo-1.0", want: "is not a valid SPDX licence expression"},
		{expr: "SEE LICENSE IN LICENSE.txt", ok: true},
		{expr: "SEE LICENSE IN legal/terms.md", ok: true},
		{expr: "SEE LICENSE IN ../LICENSE", want: `names no usable file: the path "../LICENSE"`},
		{expr: "SEE LICENSE IN ", want: "names no usable file"},
		{expr: "See license in LICENSE.txt", want: "must start SEE LICENSE IN, in capitals"},
		{expr: "Proprietary. LICENSE.txt has complete terms", want: "is not a valid SPDX licence expression"},
	}
	for _, tt := range tests {
		err := CheckLicense(tt.expr)
		if tt.ok {
			if err != nil {
				t.Errorf("CheckLicense(%q) = %v, want nil", tt.expr, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckLicense(%q) = %v, want message containing %q", tt.expr, err, tt.want)
			continue
		}
		p := err.(*Problem)
		if p.Code != "ASK_LICENSE_INVALID" || p.Warning != tt.warning || p.Fix == "" {
			t.Errorf("CheckLicense(%q) = %+v, want ASK_LICENSE_INVALID warning=%v with a fix", tt.expr, p, tt.warning)
		}
	}
}

func TestCheckLicenseFixPointsAtSPDX(t *testing.T) {
	err := CheckLicense("Apache 2")
	if err == nil || !strings.Contains(err.(*Problem).Fix, "https://spdx.org/licenses/") {
		t.Errorf("CheckLicense(%q) = %v, want a fix naming https://spdx.org/licenses/", "Apache 2", err)
	}
}
