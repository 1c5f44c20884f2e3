module github.com/agent-skills/agent-skills/resolve

go 1.26.0

require (
	github.com/Masterminds/semver/v3 v3.5.0
	go.yaml.in/yaml/v3 v3.0.6
)
