module github.com/agent-skills/agent-skills/testscripts

go 1.26.0

require github.com/agent-skills/agent-skills/cli v0.0.0

require (
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/opencontainers/image-spec v1.1.1 // indirect
	golang.org/x/crypto v0.59.0 // indirect
	oras.land/oras-go/v2 v2.7.0 // indirect
)

require (
	github.com/agent-skills/agent-skills/registry v0.0.0
	github.com/agent-skills/agent-skills/resolve v0.0.0 // indirect
	github.com/aymanbagabas/go-udiff v0.4.2 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/hashicorp/errwrap v1.1.0 // indirect
	github.com/hashicorp/go-multierror v1.1.1 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	github.com/ncruces/go-sqlite3 v0.37.0
	github.com/ncruces/go-sqlite3-wasm/v6 v6.5.35401 // indirect
	github.com/ncruces/julianday v1.0.0 // indirect
	github.com/pelletier/go-toml/v2 v2.4.3 // indirect
	github.com/posener/complete v1.2.3 // indirect
	github.com/riywo/loginshell v0.0.0-20200815045211-7d26008be1ab // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f // indirect
	github.com/willabides/kongplete v0.4.0 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/term v0.48.0 // indirect
	golang.org/x/text v0.44.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

require (
	github.com/Masterminds/semver/v3 v3.5.0 // indirect
	github.com/agent-skills/agent-skills/agents v0.0.0 // indirect
	github.com/agent-skills/agent-skills/format v0.0.0 // indirect
	github.com/agent-skills/agent-skills/scaffold v0.0.0 // indirect
	github.com/agent-skills/agent-skills/scan v0.0.0 // indirect
	github.com/agent-skills/agent-skills/skills v0.0.0 // indirect
	github.com/agent-skills/agent-skills/validate v0.0.0 // indirect
	github.com/alecthomas/kong v1.17.0 // indirect
	github.com/github/go-spdx/v2 v2.8.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0
	github.com/yuin/goldmark v1.8.7 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace github.com/agent-skills/agent-skills/cli => ../cli

replace github.com/agent-skills/agent-skills/format => ../format

replace github.com/agent-skills/agent-skills/validate => ../validate

replace github.com/agent-skills/agent-skills/resolve => ../resolve

replace github.com/agent-skills/agent-skills/agents => ../agents

replace github.com/agent-skills/agent-skills/registry => ../registry

replace github.com/agent-skills/agent-skills/scaffold => ../scaffold

replace github.com/agent-skills/agent-skills/scan => ../scan

replace github.com/agent-skills/agent-skills/skills => ../skills
