package publish

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/registry"
)

// ResignResult is what Resign signed.
type ResignResult struct {
	// Index and Signature are the paths of the index and its detached
	// signature.
	Index     string `json:"index"`
	Signature string `json:"signature"`
	// Versions are the versions signed again, as "name@version", in index
	// order.
	Versions []string `json:"versions"`
}

// Resign signs the folder registry at t.Root again with one key: every
// version's package statement (its signatures list becomes that one
// signature) and then the whole index (registry/skills.yaml.sig). It is
// how a registry moves to a new key. Every version's payload is verified
// against its integrity first, so that a key never vouches for bytes that
// changed; on any failure nothing is written. The index is edited as a
// yaml.Node tree, so comments and order are kept, and the result must
// decode to the intended index. opts are the registry options the
// payloads are read with (a cache directory for tarballs).
func (t FolderTarget) Resign(ctx context.Context, opts registry.Options, signPackage func(name, version, integrity string) (string, error), signIndex func([]byte) ([]byte, error)) (*ResignResult, error) {
	data, idx, err := t.readIndex()
	if err != nil {
		return nil, err
	}
	file := filepath.Join(t.Root, filepath.FromSlash(IndexFile))
	if data == nil {
		return nil, &Error{Code: registry.CodeRegistryUnavailable, Message: "there is no " + IndexFile + " in " + t.Root,
			Try: []string{"give the root folder of a registry (agent-skills registry init creates one)"}}
	}
	reg, err := registry.Open(registry.Spec{Name: filepath.Base(t.Root), URL: t.Root, Kind: registry.KindLocal}, opts)
	if err != nil {
		return nil, err
	}
	res := &ResignResult{Index: file, Signature: file + registry.SignatureSuffix}
	sigs := map[string]string{}
	for _, s := range idx.Skills {
		for _, v := range s.Versions {
			if _, err := reg.Package(ctx, s.Name, v.Version); err != nil {
				return nil, err
			}
			sig, err := signPackage(s.Name, v.Version, v.Integrity)
			if err != nil {
				return nil, err
			}
			v.Signatures = []string{sig}
			sigs[s.Name+"@"+v.Version] = sig
			res.Versions = append(res.Versions, s.Name+"@"+v.Version)
		}
	}
	out, err := resignNodes(data, sigs)
	if err == nil {
		var got *registry.Index
		if got, err = registry.DecodeIndex(out, IndexFile); err == nil && !bytes.Equal(got.EncodeJSON(), idx.EncodeJSON()) {
			err = fmt.Errorf("the edited document does not decode to the intended index")
		}
	}
	if err != nil {
		return nil, &Error{Code: CodePublishIndexPatch, Message: "cannot add the signatures to " + IndexFile, Err: err}
	}
	sig, err := signIndex(out)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(file, out, 0o644); err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(res.Signature, sig, 0o644); err != nil {
		return nil, err
	}
	return res, nil
}

// resignNodes sets the signatures of every version in the document src
// to the one in sigs ("name@version" → compact signature).
func resignNodes(src []byte, sigs map[string]string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errShape
	}
	_, skills := entry(doc.Content[0], "skills")
	if skills == nil || skills.Kind != yaml.SequenceNode {
		return nil, errShape
	}
	for _, s := range skills.Content {
		_, name := entry(s, "name")
		_, versions := entry(s, "versions")
		if name == nil || versions == nil || versions.Kind != yaml.SequenceNode {
			return nil, errShape
		}
		for _, item := range versions.Content {
			_, vv := entry(item, "version")
			if vv == nil || item.Kind != yaml.MappingNode {
				return nil, errShape
			}
			sig, ok := sigs[name.Value+"@"+vv.Value]
			if !ok {
				return nil, errShape
			}
			item.Style = 0 // a flow mapping {version: …} becomes a block one
			seq := stringSeq([]string{sig}, 0)
			if k, _ := entry(item, "signatures"); k != nil {
				for i := 0; i+1 < len(item.Content); i += 2 {
					if item.Content[i] == k {
						item.Content[i+1] = seq
					}
				}
				continue
			}
			item.Content = append(item.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "signatures"}, seq)
		}
	}
	return encodeNode(&doc)
}
