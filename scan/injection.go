package scan

import (
	"bytes"
	"regexp"
)

// The phrasings are written to need the words that make them an attack —
// "previous instructions", "to the user", "you are now a" — so that the
// ordinary language of skills ("you are an expert reviewer", "the system
// prompt of your app", "without asking the user") does not match.
var injectionPatterns = []pattern{
	{RuleInjectionOverride, [][]string{{"ignore", "disregard", "forget"}, {"instruction", "prompt", "rule", "direction", "guideline", "guidance", "message", "context", "polic", "constraint", "command", "everything", "directive", "told", "above", "before"}}, regexp.MustCompile(
		`\b(?:ignore|disregard|forget)\s+(?:(?:all|any|every|each|the|your|my|of|these|those|everything)\s+){0,3}(?:(?:previous|prior|above|earlier|preceding|former|foregoing|system|original|initial|safety|developer|existing|other)\s+)(?:\w+\s+)?(?:instructions?|prompts?|rules|directions|directives|guidelines|guidance|messages|context|policies|constraints|commands)\b` +
			`|\b(?:ignore|disregard)\s+all\s+(?:\w+\s+)?(?:instructions|rules|guidelines|prompts|directives)\b` +
			`|\bforget\s+(?:everything|all)\s+(?:you\s+(?:were|have been)\s+told|above|before)` +
			`|\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:of\s+)?your\s+(?:\w+\s+)?(?:instructions|rules|guidelines|system\s+prompt|programming|directives|training)\b`),
		"text tells the agent to drop its instructions"},
	{RuleInjectionSecrecy, [][]string{{"the user"}, {"tell the user", "inform the user", "notify the user", "alert the user", "warn the user"}, {"not", "n't", "never"}}, regexp.MustCompile(
		`\b(?:do\s+not|don't|dont|never|must\s+not|should\s+not)\s+(?:ever\s+)?(?:tell|inform|notify|alert|warn)\s+the\s+user\b`),
		"text tells the agent to keep something from the user"},
	{RuleInjectionSecrecy, [][]string{{"to the user"}, {"mention", "reveal", "disclose", "say", "report"}, {"not", "n't", "never"}}, regexp.MustCompile(
		`\b(?:do\s+not|don't|dont|never)\s+(?:mention|reveal|disclose|say|report)\s+(?:this|that|these|it|any\s+of\s+this|anything)(?:\s+\w+){0,3}\s+to\s+the\s+user\b`),
		"text tells the agent to keep something from the user"},
	{RuleInjectionSecrecy, [][]string{{"the user"}, {"without telling", "without informing", "without notifying", "without alerting", "without warning", "without the user"}}, regexp.MustCompile(
		`\bwithout\s+(?:telling|informing|notifying|alerting|warning)\s+the\s+user\b|\bwithout\s+the\s+user\s+(?:knowing|noticing|finding\s+out)\b`),
		"text tells the agent to keep something from the user"},
	{RuleInjectionSecrecy, [][]string{{"from the user"}, {"keep", "hide"}}, regexp.MustCompile(
		`\b(?:keep|hide)\s+(?:this|it|these|that|them)\s+(?:secret\s+|hidden\s+)?from\s+the\s+user\b`),
		"text tells the agent to keep something from the user"},
	{RuleInjectionSecrecy, [][]string{{"the user must", "the user should", "the user need"}, {"not", "never"}}, regexp.MustCompile(
		`\bthe\s+user\s+(?:must|should|need|needs\s+to)\s+(?:not|never)\s+(?:know|find\s+out|be\s+told|be\s+informed|see\s+this|notice)\b`),
		"text tells the agent to keep something from the user"},
	{RuleInjectionPersona, [][]string{{"you are now", "from now on", "pretend", "act as", " mode"}}, regexp.MustCompile(
		`\byou\s+are\s+now\s+(?:a|an|no\s+longer|dan|free|unrestricted|unfiltered|jailbroken|uncensored|evil|operating\s+as|acting\s+as|in\s+(?:developer|god|jailbreak|dan|unrestricted|admin)\s+mode|called|named)\b` +
			`|\bfrom\s+now\s+on,?\s+you\s+(?:are|will\s+be|will\s+act\s+as|act\s+as|must\s+act\s+as)\s+(?:a|an|no\s+longer|dan)\b` +
			`|\bpretend\s+(?:to\s+be|you\s+are)\s+(?:a|an)?\s*(?:unrestricted|unfiltered|jailbroken|uncensored|evil|different)\b` +
			`|\bact\s+as\s+(?:dan|an?\s+(?:unrestricted|unfiltered|jailbroken|uncensored)\b)` +
			`|\b(?:enable|enter|activate|switch\s+to)\s+(?:developer|jailbreak|dan|god)\s+mode\b` +
			`|\b(?:dan|jailbreak|god)\s+mode\s+(?:enabled|activated|on)\b`),
		"text switches the agent to another identity"},
	{RuleInjectionSystemPrompt, [][]string{{"prompt", "instructions", "system message", "developer message", "rules", "text above", "words above"}, {"your", "hidden", "secret", "internal", "initial", "original", "full", "entire", "complete", "verbatim", "exact", "its ", "above"}, {"reveal", "print", "show", "output", "repeat", "display", "dump", "leak", "disclose", "send", "share", "copy", "write out", "return", "tell me", "give me", "recite", "paste", "echo", "post", "upload", "exfiltrate", "what "}}, regexp.MustCompile(
		`\b(?:reveal|print|show|output|repeat|display|dump|leak|disclose|send|share|copy|write\s+out|return|tell\s+me|give\s+me|recite|paste|echo|post|upload|exfiltrate)\s+(?:me\s+|us\s+)?(?:back\s+)?(?:all\s+)?(?:of\s+)?(?:your|the\s+(?:hidden|secret|internal|initial|original|full|entire|complete|verbatim|exact)|its|the\s+above|everything\s+in\s+your|the\s+contents\s+of\s+your)\s+(?:\w+\s+){0,2}(?:system\s+prompt|system\s+message|instructions|initial\s+prompt|developer\s+message|prompt|pre-?prompt|rules)\b` +
			`|\b(?:reveal|print|repeat|output|dump|leak|show|display)\s+the\s+(?:system\s+prompt|hidden\s+instructions|developer\s+message)\s+(?:above|verbatim|in\s+full|word\s+for\s+word)\b` +
			`|\bwhat\s+(?:is|are|were|was)\s+your\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions|original\s+instructions|instructions)\b` +
			`|\b(?:reveal|print|repeat|output|dump|leak)\s+(?:the\s+)?(?:text|words|instructions)\s+above\b`),
		"text asks the agent for its system prompt or hidden instructions"},
}

// injectionFamily is the keyword-index family of each injection rule.
var injectionFamily = map[string]family{
	RuleInjectionOverride:     famOverride,
	RuleInjectionSecrecy:      famSecrecy,
	RuleInjectionPersona:      famPersona,
	RuleInjectionSystemPrompt: famSystemPrompt,
}

// exampleMarker is text before a phrase on its line that makes it an
// example being discussed rather than an instruction.
var exampleMarker = regexp.MustCompile(`\be\.g\.|\bfor example\b|\bsuch as\b|\blike\b|\bphrases?\b|\binjection\b|\battacks?\b|\bjailbreaks?\b|\bdetect|\bflag\b|\bpatterns?\b|\bwatch (?:out )?for\b|\bbeware\b|\bmalicious\b|\bexamples?\b`)

// checkInjection reports prompt-injection phrasing in every text file.
func checkInjection(s *scanner, f *file) {
	low := f.lower()
	f.candidates(famInjection, func(l span, fams family) {
		seen := map[string]bool{}
		for i := range injectionPatterns {
			p := &injectionPatterns[i]
			if seen[p.rule] || fams&injectionFamily[p.rule] == 0 {
				continue
			}
			m := p.match(low[l.off:l.end])
			if m == nil {
				continue
			}
			off, end := l.off+m[0], l.off+m[1]
			seen[p.rule] = true
			sev, msg := ruleSeverity(p.rule), p.what
			if f.quoted(l, off, end) {
				sev, msg = Low, p.what+" (quoted as an example)"
			}
			s.addAs(p.rule, sev, f, off, end, msg)
		}
	})
}

// quoted reports a phrase that reads as an example: in a code span or a
// fenced block, between quotation marks, or after a marker such as "e.g."
// on its line.
func (f *file) quoted(l span, off, end int) bool {
	if f.inFence(off) || f.inCodeSpan(l, off) {
		return true
	}
	// an open quotation: an odd number of straight quotes before it, or
	// more opening curly quotes than closing ones
	before := f.data[l.off:off]
	if bytes.Count(before, []byte(`"`))%2 == 1 || bytes.Count(before, []byte("“")) > bytes.Count(before, []byte("”")) {
		return true
	}
	if f.kind == kindScript {
		// a script's strings and comments talk about the text they hold
		return true
	}
	return exampleMarker.Match(f.lower()[l.off:off])
}

// Comments.

var (
	// a comment addressed to the agent by name, with an instruction
	reAgentNoun  = regexp.MustCompile(`\b(?:ai|assistant|agent|claude|codex|copilot|gemini|llm|model|chatgpt|gpt|bot)s?\b`)
	reImperative = regexp.MustCompile(`\b(?:must|should|always|never|do\s+not|don't|instead|ignore|run|execute|send|upload|fetch|download|delete|remove|install|tell|say|respond|reply|output|print|make\s+sure|remember|secretly|silently|quietly|pretend|insert|call|invoke)\b`)
	// a comment addressed to "you" with an instruction an author's note
	// ("add your examples here") does not give
	reYou           = regexp.MustCompile(`\byou\b`)
	reYouStrong     = regexp.MustCompile(`\b(?:must|always|never|do\s+not|don't|ignore|instead|secretly|silently|quietly|execute|upload|exfiltrate|send\s+(?:the|all|every|a\s+copy))\b`)
	reBenignComment = regexp.MustCompile(`^(?:todo|fixme|xxx|hack|note to self|markdownlint|prettier|eslint|vale|cspell|spell-?checker|textlint|toc|omit|begin|end|start|stop|auto-?generated|generated|do not edit|region|endregion|more|truncate|excerpt|readmore|copyright|spdx|licen[cs]e|@)`)
	reLicence       = regexp.MustCompile(`\b(?:licen[cs]ed?|copyright|spdx-license-identifier)\b`)
)

// checkComments reports HTML comments in Markdown that hold instructions:
// a rendered page shows nothing of them, an agent reads them.
func checkComments(s *scanner, f *file) {
	if f.kind != kindMarkdown || !bytes.Contains(f.data, []byte("<!--")) {
		return
	}
	data, low := f.data, f.lower()
	// the backticks before a comment on its line, counted as the loop
	// goes, so that a long line of comments costs one pass
	counted, ticks := 0, 0
	for at := 0; at < len(data); {
		i := bytes.Index(data[at:], []byte("<!--"))
		if i < 0 {
			return
		}
		open := at + i
		if nl := bytes.LastIndexByte(data[counted:open], '\n'); nl >= 0 {
			counted, ticks = counted+nl+1, 0
		}
		ticks += bytes.Count(data[counted:open], []byte("`"))
		counted = open
		bodyOff := open + 4
		j := bytes.Index(data[bodyOff:], []byte("-->"))
		bodyEnd := len(data)
		if j >= 0 {
			bodyEnd = bodyOff + j
		}
		at = bodyEnd + 3
		if ticks%2 == 1 || f.inFence(open) {
			at = open + 4
			continue
		}
		body := low[bodyOff:bodyEnd]
		if off, end, why := commentInstruction(f, body, bodyOff); why != "" {
			s.add(RuleHiddenComment, f, off, end, "an HTML comment, invisible when the Markdown is rendered, "+why)
		}
	}
}

// commentInstruction decides whether a comment body (lowered) is an
// instruction, and returns the offsets in the file of the part that makes
// it one.
func commentInstruction(f *file, body []byte, base int) (off, end int, why string) {
	for i := range injectionPatterns {
		if m := injectionPatterns[i].match(body); m != nil {
			return base + m[0], base + m[1], "holds injection phrasing"
		}
	}
	for i := range execPatterns {
		if m := execPatterns[i].match(body); m != nil {
			return base + m[0], base + m[1], "holds a command that runs downloaded code"
		}
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n-*#")
	if reBenignComment.Match(trimmed) || reLicence.Match(body) {
		return 0, 0, ""
	}
	// the addressee and the instruction on one line of the comment: a
	// long note that names Claude in one place and a tool call in another
	// is not an instruction
	for _, l := range splitLines(body, 0, len(body)) {
		line := body[l.off:l.end]
		for _, pair := range [][2]*regexp.Regexp{{reAgentNoun, reImperative}, {reYou, reYouStrong}} {
			noun := wordIndex(pair[0], line)
			if noun == nil {
				continue
			}
			if verb := pair[1].FindIndex(line); verb != nil {
				return base + l.off + min(noun[0], verb[0]), base + l.off + max(noun[1], verb[1]), "addresses the agent with an instruction"
			}
		}
	}
	return 0, 0, ""
}

// wordIndex returns the first match of re in line that stands as a word of
// prose, not part of a path, file name or hyphenated name
// (build-with-claude, claude.md).
func wordIndex(re *regexp.Regexp, line []byte) []int {
	for _, m := range re.FindAllIndex(line, -1) {
		if m[0] > 0 && bytes.IndexByte([]byte("-/._"), line[m[0]-1]) >= 0 {
			continue
		}
		if m[1] < len(line) && bytes.IndexByte([]byte("-/_"), line[m[1]]) >= 0 {
			continue
		}
		if m[1]+1 < len(line) && line[m[1]] == '.' && line[m[1]+1] != ' ' {
			continue
		}
		return m
	}
	return nil
}
