module github.com/agent-skills/agent-skills/scaffold

go 1.26.0

require (
	github.com/agent-skills/agent-skills/format v0.0.0
	github.com/agent-skills/agent-skills/scan v0.0.0
	github.com/agent-skills/agent-skills/validate v0.0.0
	github.com/rogpeppe/go-internal v1.16.0
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/Masterminds/semver/v3 v3.5.0 // indirect
	github.com/github/go-spdx/v2 v2.8.0 // indirect
	github.com/yuin/goldmark v1.8.7 // indirect
	golang.org/x/text v0.44.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace github.com/agent-skills/agent-skills/format => ../format

replace github.com/agent-skills/agent-skills/validate => ../validate

replace github.com/agent-skills/agent-skills/scan => ../scan
