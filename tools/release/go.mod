module github.com/agent-skills/agent-skills/tools/release

go 1.26.0

require (
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/mod v0.42.0
)
