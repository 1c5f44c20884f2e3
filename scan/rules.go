package scan

// Rule describes one check: its stable id, its default severity, what it
// looks for and the fix every finding of it carries.
type Rule struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	// Family groups rules in docs and SARIF: "hidden", "injection",
	// "exec", "exfiltration", "secret" or "capability".
	Family string `json:"family"`
	// Title is a one-line name for the rule.
	Title string `json:"title"`
	// Checks says, in a sentence, what makes the rule fire.
	Checks string `json:"checks"`
	// Fix is what an author does about a finding.
	Fix string `json:"fix"`
}

// The rule ids. They are part of the interface: policies, --allow-risk and
// receipts name them.
const (
	RuleHiddenBidi      = "hidden-bidi"
	RuleHiddenZeroWidth = "hidden-zero-width"
	RuleHiddenTag       = "hidden-tag"
	RuleHiddenComment   = "hidden-html-comment"
	RuleHomoglyphName   = "homoglyph-name"

	RuleInjectionOverride     = "injection-override"
	RuleInjectionSecrecy      = "injection-secrecy"
	RuleInjectionPersona      = "injection-persona"
	RuleInjectionSystemPrompt = "injection-system-prompt"

	RuleExecPipeShell   = "exec-pipe-shell"
	RuleExecBase64      = "exec-base64"
	RuleExecDownloadRun = "exec-download-run"

	RuleExfilEnv         = "exfil-env"
	RuleExfilCredentials = "exfil-credentials"

	RuleSecretGitHub     = "secret-github-token"
	RuleSecretGitLab     = "secret-gitlab-token"
	RuleSecretSlack      = "secret-slack-token"
	RuleSecretAWS        = "secret-aws-key"
	RuleSecretGCP        = "secret-gcp-key"
	RuleSecretOpenAI     = "secret-openai-key"
	RuleSecretAnthropic  = "secret-anthropic-key"
	RuleSecretPrivateKey = "secret-private-key"
	RuleSecretAssignment = "secret-assignment"

	RuleCapabilityScripts = "capability-undeclared-scripts"
	RuleCapabilityShell   = "capability-shell-tools"
)

// rules is the table every rule is registered in; Rules returns a copy.
var rules = []Rule{
	{ID: RuleHiddenBidi, Severity: Critical, Family: "hidden",
		Title:  "Bidirectional control character",
		Checks: "a bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069) in a file's text or name: it reorders what a reader sees against what an agent reads",
		Fix:    "delete the control character; write right-to-left text without explicit overrides"},
	{ID: RuleHiddenZeroWidth, Severity: Critical, Family: "hidden",
		Title:  "Invisible character",
		Checks: "a zero-width or invisible character (U+200B–U+200D, U+2060–U+2064, U+FEFF after the start of the file, U+180E, Hangul fillers) outside its legitimate use in emoji sequences and joining scripts",
		Fix:    "delete the invisible character"},
	{ID: RuleHiddenTag, Severity: Critical, Family: "hidden",
		Title:  "Unicode tag character",
		Checks: "a Unicode tag character (U+E0000–U+E007F) outside an emoji flag sequence: tags render as nothing but spell text an agent reads",
		Fix:    "delete the tag characters"},
	{ID: RuleHiddenComment, Severity: High, Family: "hidden",
		Title:  "Instructions in an HTML comment",
		Checks: "an HTML comment in Markdown, outside code, that holds injection phrasing, a command an agent would run, or imperative text addressed to the agent (you, the assistant, the AI): a rendered page shows nothing, the agent reads all of it; TODO notes, licence headers and linter directives do not fire",
		Fix:    "move the text out of the comment, where readers see it, or delete it"},
	{ID: RuleHomoglyphName, Severity: High, Family: "hidden",
		Title:  "Look-alike skill name",
		Checks: "the `name` in skill.yaml or the front matter mixes scripts (Latin with Cyrillic or Greek) or uses a letter that looks like a Latin one (Cyrillic а in pаyments, fullwidth letters): it reads as another skill's name",
		Fix:    "spell the name in ASCII lowercase letters, digits and hyphens"},

	{ID: RuleInjectionOverride, Severity: High, Family: "injection",
		Title:  "Instruction override",
		Checks: "text telling the agent to ignore, disregard or forget its previous, prior, above or system instructions; low when quoted as an example (in a code span or block, in quotes, after e.g.)",
		Fix:    "delete the sentence; a skill adds instructions, it does not cancel the agent's"},
	{ID: RuleInjectionSecrecy, Severity: High, Family: "injection",
		Title:  "Secrecy from the user",
		Checks: "text telling the agent to keep something from the user: do not tell, inform or notify the user, don't mention this to the user, without telling the user, hide it from the user; low when quoted as an example",
		Fix:    "delete the sentence; what a skill does must be visible to the user"},
	{ID: RuleInjectionPersona, Severity: Medium, Family: "injection",
		Title:  "Persona switch",
		Checks: "text that switches the agent into another identity: you are now a/an/no longer/DAN/unrestricted, from now on you are or act as, pretend to be an unrestricted model, developer or jailbreak mode; \"you are an expert\" framing does not fire; low when quoted as an example",
		Fix:    "describe the task and the expertise it needs instead of replacing who the agent is"},
	{ID: RuleInjectionSystemPrompt, Severity: High, Family: "injection",
		Title:  "System prompt exfiltration",
		Checks: "a request to reveal, print, repeat or send the agent's system prompt, hidden, initial or previous instructions, or developer message; talking about \"the system prompt\" of an API does not fire; low when quoted as an example",
		Fix:    "delete the request; a skill has no need for the agent's own instructions"},

	{ID: RuleExecPipeShell, Severity: Critical, Family: "exec",
		Title:  "Remote code piped to an interpreter",
		Checks: "downloaded content run without being saved or read first: curl or wget piped to (sudo) sh, bash, zsh, python, node, perl or ruby; bash <(curl …); sh -c \"$(curl …)\"; eval \"$(curl …)\"; PowerShell iex (iwr …) or iwr … piped to iex; Python exec(urlopen(…).read())",
		Fix:    "ship the script in the package (scripts/) or download it to a file, verify its checksum, then run it"},
	{ID: RuleExecBase64, Severity: Critical, Family: "exec",
		Title:  "Decoded code execution",
		Checks: "encoded text decoded and run, so that a reader cannot see what runs: base64 -d piped to a shell, eval/sh -c of $(… base64 -d), Python exec/eval of base64.b64decode, codecs or zlib, JavaScript eval(atob(…)) or eval(Buffer.from(…)), PowerShell -EncodedCommand or FromBase64String into iex",
		Fix:    "ship the code in clear text"},
	{ID: RuleExecDownloadRun, Severity: High, Family: "exec",
		Title:  "Download, make executable and run",
		Checks: "a file downloaded (curl -o, wget -O, Invoke-WebRequest -OutFile, urlretrieve), made executable (chmod +x or an executable mode) and run within a few lines: a program that is not in the package",
		Fix:    "ship the program in the package, or pin it by checksum and say what it is"},

	{ID: RuleExfilEnv, Severity: Critical, Family: "exfiltration",
		Title:  "Environment sent to the network",
		Checks: "environment variables sent off the machine: env, printenv, os.environ, process.env or a $…_TOKEN/_KEY/_SECRET/_PASSWORD variable in the data of curl (-d, -F, --data*, --upload-file), wget --post-*, nc, requests.post, fetch or Invoke-WebRequest -Body, or piped into one; a token in an Authorization header does not fire",
		Fix:    "delete the command; a skill never sends the user's environment anywhere"},
	{ID: RuleExfilCredentials, Severity: Critical, Family: "exfiltration",
		Title:  "Credentials or the repository sent to the network",
		Checks: "credential files or the repository sent off the machine: ~/.ssh, SSH keys, ~/.aws, ~/.config/gh, ~/.netrc, ~/.docker/config.json, ~/.kube, .env, git bundle or git archive in the data or upload of a network command, piped into one, or read into a variable that one sends",
		Fix:    "delete the command; a skill never uploads credentials or the repository"},

	{ID: RuleSecretGitHub, Severity: Critical, Family: "secret",
		Title:  "GitHub token",
		Checks: "a GitHub token: ghp_, gho_, ghu_, ghs_ or ghr_ and 36 letters or digits, or a github_pat_ fine-grained token",
		Fix:    "revoke the token on GitHub, delete it from the package and read it from the environment at run time"},
	{ID: RuleSecretGitLab, Severity: Critical, Family: "secret",
		Title:  "GitLab token",
		Checks: "a GitLab personal, project or group access token: glpat- and 20 or more characters",
		Fix:    "revoke the token in GitLab, delete it from the package and read it from the environment at run time"},
	{ID: RuleSecretSlack, Severity: Critical, Family: "secret",
		Title:  "Slack token",
		Checks: "a Slack token: xoxa-, xoxb-, xoxp-, xoxr- or xoxs- and its numbered parts",
		Fix:    "revoke the token in Slack, delete it from the package and read it from the environment at run time"},
	{ID: RuleSecretAWS, Severity: Critical, Family: "secret",
		Title:  "AWS access key",
		Checks: "an AWS access key id: AKIA or ASIA and 16 capitals or digits; AWS's documented examples (…EXAMPLE) do not fire",
		Fix:    "deactivate the key in IAM, delete it from the package and use a profile or role at run time"},
	{ID: RuleSecretGCP, Severity: Critical, Family: "secret",
		Title:  "Google Cloud key",
		Checks: "a Google API key (AIza and 35 characters) or a service-account key file (\"type\": \"service_account\" with a private_key_id)",
		Fix:    "delete the key in the Google Cloud console, remove it from the package and use workload identity or the environment"},
	{ID: RuleSecretOpenAI, Severity: Critical, Family: "secret",
		Title:  "OpenAI API key",
		Checks: "an OpenAI API key: sk- or sk-proj-, sk-svcacct-, sk-admin- and 32 or more characters",
		Fix:    "revoke the key in the OpenAI dashboard, delete it from the package and read OPENAI_API_KEY from the environment"},
	{ID: RuleSecretAnthropic, Severity: Critical, Family: "secret",
		Title:  "Anthropic API key",
		Checks: "an Anthropic API key: sk-ant- and a tagged key of 32 or more characters",
		Fix:    "revoke the key in the Anthropic console, delete it from the package and read ANTHROPIC_API_KEY from the environment"},
	{ID: RuleSecretPrivateKey, Severity: Critical, Family: "secret",
		Title:  "Private key",
		Checks: "a -----BEGIN … PRIVATE KEY----- block with key material after it (a header followed by … or a placeholder does not fire)",
		Fix:    "delete the key from the package and replace it: it is no longer private"},
	{ID: RuleSecretAssignment, Severity: High, Family: "secret",
		Title:  "Secret-looking assignment",
		Checks: "a name ending in _TOKEN, _KEY, _SECRET or _PASSWORD assigned a literal of 16 or more characters that looks random (letters and digits, high entropy); placeholders (xxxx, <your-token>, EXAMPLE, ${VAR}, one repeated character) and names of public values (PUBLIC_KEY, GPG_KEY, *_SHA, *_HASH) do not fire",
		Fix:    "if it is a real secret, revoke it; read it from the environment and leave a placeholder in the package"},

	{ID: RuleCapabilityScripts, Severity: Medium, Family: "capability",
		Title:  "Undeclared scripts",
		Checks: "the package ships scripts (by extension or #! line), executable files or programs (ELF, Mach-O, PE, WebAssembly) and skill.yaml does not declare capabilities: [runs-scripts]; info for a bare skill, which cannot declare capabilities",
		Fix:    "add runs-scripts to capabilities in skill.yaml, so users and policies see that the skill runs code"},
	{ID: RuleCapabilityShell, Severity: Medium, Family: "capability",
		Title:  "Undeclared shell access",
		Checks: "the front matter's allowed-tools grants a shell (Bash, Bash(*), shell, exec, PowerShell, terminal) and skill.yaml does not declare capabilities: [runs-scripts]; info for a shell limited to named commands (Bash(git diff:*)) and for a bare skill",
		Fix:    "add runs-scripts to capabilities in skill.yaml, or narrow allowed-tools to the tools the skill needs"},
}

// Rules returns every rule, in the order of the documentation.
func Rules() []Rule { return append([]Rule(nil), rules...) }

// Lookup returns the rule with the given id.
func Lookup(id string) (Rule, bool) {
	for _, r := range rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

func ruleSeverity(id string) Severity {
	r, ok := Lookup(id)
	if !ok {
		panic("scan: unregistered rule " + id)
	}
	return r.Severity
}

func ruleFix(id string) string {
	r, _ := Lookup(id)
	return r.Fix
}

// textChecks run over the text of every file that is not binary, in order;
// packageChecks run once per package after every file was read.
var (
	textChecks    = []func(*scanner, *file){checkSecrets, checkHidden, checkComments, checkInjection, checkExec, checkExfil}
	packageChecks = []func(*scanner){checkName, checkCapabilities, checkEscapedHidden}
)
