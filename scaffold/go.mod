module github.com/agent-skills/agent-skills/scaffold

go 1.26

require (
	github.com/agent-skills/agent-skills/format v0.0.0
	github.com/agent-skills/agent-skills/validate v0.0.0
)

replace github.com/agent-skills/agent-skills/format => ../format

replace github.com/agent-skills/agent-skills/validate => ../validate
