module github.com/agent-skills/agent-skills/registry

go 1.26.0

require (
	github.com/Masterminds/semver/v3 v3.5.0
	github.com/agent-skills/agent-skills/format v0.0.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/crypto v0.59.0
)

require (
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)

replace github.com/agent-skills/agent-skills/format => ../format
