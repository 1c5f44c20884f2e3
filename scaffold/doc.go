// Package scaffold generates new skill packages (skill, command or workflow)
// that pass strict validation, and adopts existing bare skills by writing a
// manifest that matches their front matter.
package scaffold
