module github.com/agent-skills/agent-skills/validate

go 1.26.0

require (
	github.com/Masterminds/semver/v3 v3.5.0
	github.com/agent-skills/agent-skills/format v0.0.0
	github.com/agent-skills/agent-skills/scan v0.0.0
	github.com/github/go-spdx/v2 v2.8.0
	github.com/yuin/goldmark v1.8.7
)

require (
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/text v0.44.0 // indirect
)

replace github.com/agent-skills/agent-skills/format => ../format

replace github.com/agent-skills/agent-skills/scan => ../scan
