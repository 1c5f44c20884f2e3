module github.com/agent-skills/agent-skills/registry

go 1.26.0

require (
	github.com/Masterminds/semver/v3 v3.5.0
	github.com/agent-skills/agent-skills/format v0.0.0
	github.com/opencontainers/go-digest v1.0.0
	github.com/opencontainers/image-spec v1.1.1
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/crypto v0.59.0
	oras.land/oras-go/v2 v2.7.0
)

require (
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)

replace github.com/agent-skills/agent-skills/format => ../format
