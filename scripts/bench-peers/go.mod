module github.com/agent-skills/agent-skills/scripts/bench-peers

go 1.26.0
