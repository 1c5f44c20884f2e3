// Package complete answers a shell's completion request for agent-skills.
//
// The shells' completion scripts (Script) run the binary with the line
// typed so far in COMP_LINE and the cursor in COMP_POINT — bash's
// `complete -C` protocol, which the zsh and fish scripts imitate. The
// command tree and its flags come from the kong model through
// github.com/willabides/kongplete, whose posener/complete v1 types do the
// matching of words to subcommands and flags; this package reads the
// request from the getenv it is given (never the process's environment),
// lists the candidates, and keeps every one that a shell could mistake
// for more than one word out.
//
// The predictors of values (Sources) read only what is on disk — the
// agent table, config.json's registries, the receipts `list` reads — and
// never write or use the network; the caller bounds their time, and a
// completion that fails prints nothing.
package complete
