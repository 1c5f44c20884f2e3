module github.com/agent-skills/agent-skills/testscripts

go 1.26

require (
	github.com/agent-skills/agent-skills/agents v0.0.0
	github.com/agent-skills/agent-skills/cli v0.0.0
	github.com/agent-skills/agent-skills/format v0.0.0
	github.com/agent-skills/agent-skills/registry v0.0.0
	github.com/agent-skills/agent-skills/resolve v0.0.0
	github.com/agent-skills/agent-skills/scaffold v0.0.0
	github.com/agent-skills/agent-skills/validate v0.0.0
)

require github.com/rogpeppe/go-internal v1.16.0 // indirect

replace github.com/agent-skills/agent-skills/cli => ../cli

replace github.com/agent-skills/agent-skills/format => ../format

replace github.com/agent-skills/agent-skills/validate => ../validate

replace github.com/agent-skills/agent-skills/resolve => ../resolve

replace github.com/agent-skills/agent-skills/agents => ../agents

replace github.com/agent-skills/agent-skills/registry => ../registry

replace github.com/agent-skills/agent-skills/scaffold => ../scaffold
