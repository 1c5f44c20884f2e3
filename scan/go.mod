module github.com/agent-skills/agent-skills/scan

go 1.26.0

require github.com/agent-skills/agent-skills/format v0.0.0

require (
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/text v0.44.0 // indirect
)

replace github.com/agent-skills/agent-skills/format => ../format
