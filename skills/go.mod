module github.com/agent-skills/agent-skills/skills

go 1.26.0
