// Command genreg writes the benchmark registries of package benchreg and
// serves the HTTP one on loopback, for scripts/bench-registry.sh:
//
//	genreg <dir> <n>     make <dir>/local and <dir>/http with n skills and
//	                     write their names to <dir>/names, one a line
//	genreg serve <dir>   serve <dir>/http on 127.0.0.1 and print the
//	                     index URL on the first line of stdout
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/benchreg"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: genreg <dir> <n> | genreg serve <dir>")
		os.Exit(2)
	}
	var err error
	if os.Args[1] == "serve" {
		err = serve(os.Args[2])
	} else {
		err = generate(os.Args[1], os.Args[2])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genreg:", err)
		os.Exit(1)
	}
}

func generate(dir, count string) error {
	n, err := strconv.Atoi(count)
	if err != nil {
		return err
	}
	names, err := benchreg.Generate(dir, n)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "names"), []byte(strings.Join(names, "\n")+"\n"), 0o644)
}

func serve(dir string) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("http://%s/index.json\n", l.Addr())
	return http.Serve(l, http.FileServer(http.Dir(filepath.Join(dir, "http"))))
}
