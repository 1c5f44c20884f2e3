package bump

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
)

// ReviewSchema is the value of a review file's "schema" field.
const ReviewSchema = "agent-skills.bump-review/1"

// MaxReview is the largest review file read.
const MaxReview = 1 << 20

// Error codes.
const (
	// CodeReviewInvalid: a review file is malformed (exit 3).
	CodeReviewInvalid = "ASK_BUMP_REVIEW_INVALID"
	// CodeInputInvalid: a side of a report is not one package (exit 2).
	CodeInputInvalid = "ASK_BUMP_INPUT_INVALID"
)

// Review is a reviewer's verdicts on the changes of a report.
type Review struct {
	Schema   string          `json:"schema"`
	Verdicts []ReviewVerdict `json:"verdicts"`
	// digest names the file's bytes.
	digest string
}

// ReviewVerdict is one verdict: the package (for a collection), the
// change id, the category, an optional note and, optionally, the digest of the file after the change the
// verdict was given for (a verdict for other bytes is stale and unused).
type ReviewVerdict struct {
	// Package names the package the verdict is for: required when
	// comparing collections, optional (but checked) for one package.
	Package string   `json:"package,omitempty"`
	ID      string   `json:"id"`
	Verdict Category `json:"verdict"`
	Note    string   `json:"note,omitempty"`
	Digest  string   `json:"digest,omitempty"`
}

// Digest returns the digest of the review file's bytes.
func (r *Review) Digest() string { return r.digest }

// DecodeReview parses a review file, refusing more than MaxReview bytes,
// unknown fields, another schema and a verdict that is not patch, minor
// or major. name is used in messages only.
func DecodeReview(rd io.Reader, name string) (*Review, error) {
	b, err := io.ReadAll(io.LimitReader(rd, MaxReview+1))
	if err != nil {
		return nil, askerr.IO("cannot read review "+name, err)
	}
	if len(b) > MaxReview {
		return nil, reviewInvalid(name, fmt.Sprintf("it is larger than %d KiB", MaxReview>>10))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var r Review
	if err := dec.Decode(&r); err != nil {
		return nil, reviewInvalid(name, "it is not a review: "+err.Error())
	}
	if dec.More() {
		return nil, reviewInvalid(name, "it holds more than one JSON value")
	}
	if r.Schema != ReviewSchema {
		return nil, reviewInvalid(name, fmt.Sprintf("its schema is %q; this agent-skills reads %q", r.Schema, ReviewSchema))
	}
	for i, v := range r.Verdicts {
		if v.ID == "" || len(v.ID) > 1024 {
			return nil, reviewInvalid(name, fmt.Sprintf("verdict %d has no id, or one longer than 1024 bytes", i+1))
		}
		if !v.Verdict.Verdict() {
			return nil, reviewInvalid(name, fmt.Sprintf("verdict %d (%s) is %q: use patch, minor or major", i+1, v.ID, v.Verdict))
		}
		if len(v.Note) > 4096 {
			return nil, reviewInvalid(name, fmt.Sprintf("verdict %d (%s) has a note longer than 4096 bytes", i+1, v.ID))
		}
	}
	r.digest = format.BytesDigest(b)
	return &r, nil
}

func reviewInvalid(name, why string) error {
	return &askerr.Error{Code: CodeReviewInvalid, Message: fmt.Sprintf("review %s cannot be used: %s", name, why),
		Try: []string{`write {"schema": "` + ReviewSchema + `", "verdicts": [{"id": "<change id>", "verdict": "patch"}]}`,
			"agent-skills report bump <before> <after> --json lists the change ids"}}
}
