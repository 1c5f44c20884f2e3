package scaffold

import (
	"fmt"
	"strings"
)

// workflowFiles generates a workflow: skill.yaml and WORKFLOW.js.
func workflowFiles(s settings) ([]File, error) {
	m := s.manifest()
	m.kind = "workflow"
	m.files = []string{"WORKFLOW.js", "skill.yaml"}
	manifest, err := m.encode()
	if err != nil {
		return nil, err
	}
	return []File{
		newFile("WORKFLOW.js", []byte(workflowScript(s))),
		newFile("skill.yaml", manifest),
	}, nil
}

// workflowScript is WORKFLOW.js: a static `export const meta` literal that
// agent-skills reads without running the script, and a default async
// function that runs the workflow in three phases.
func workflowScript(s settings) string {
	topic := phraseFromName(s.name)
	return fmt.Sprintf(`// %[1]s workflow.
//
// agent-skills and the agent read `+"`meta`"+` statically, without running this
// script: keep it a pure literal (quoted strings, numbers, booleans, arrays
// and objects; no variables, calls, template strings or spreads). Its name,
// description and version must match skill.yaml.
export const meta = {
  name: %[2]s,
  description: %[3]s,
  version: %[4]s,
};

/**
 * Runs the workflow in three phases: plan, carry out, verify.
 *
 * The agent's workflow runtime provides agent(prompt) to start a subagent
 * and phase(title) to group progress; they are taken from the global scope
 * unless passed in, so the function can also be exercised with stand-ins.
 *
 * @param {unknown} args what the user passed when starting the workflow
 * @param {{agent: (prompt: string) => Promise<unknown>, phase: (title: string) => void}} [runtime]
 * @returns {Promise<{plan: unknown, result: unknown, check: unknown}>}
 */
export default async function run(args, { agent, phase } = globalThis) {
  const input = typeof args === 'string' ? args : JSON.stringify(args ?? '');

  phase('Plan');
  const plan = await agent(
    'Plan the %[5]s work for this input. List the steps, the files involved ' +
      'and how each step will be checked.\n\nInput: ' + input,
  );

  phase('Carry out');
  const result = await agent(
    'Carry out this plan step by step and report what changed.\n\nPlan:\n' + String(plan),
  );

  phase('Verify');
  const check = await agent(
    'Verify this result against the plan: run the checks it names and report ' +
      'each one as passed or failed.\n\nPlan:\n' + String(plan) + '\n\nResult:\n' + String(result),
  );

  return { plan, result, check };
}
`, titleFromName(s.name), jsString(s.name), jsString(s.description), jsString(s.version), topic)
}

// jsString renders s as a single-quoted JavaScript string literal. Quotes and
// backslashes are escaped, and so is every character that may not appear
// raw in a literal or that would confuse a reader (control characters,
// U+2028 and U+2029).
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 {
				fmt.Fprintf(&b, `\u%04x`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
