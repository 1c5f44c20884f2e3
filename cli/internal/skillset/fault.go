package skillset

// Fault-injection points of the use cases that change the agent roots and
// skills.lock together, besides install's own (install.Point*). Tests kill
// the process at them to prove that every kill leaves a state the next
// run finishes.
const (
	// PointJournalWritten follows writing the run journal, right before
	// the roots change.
	PointJournalWritten = "journal-written"
	// PointLockWritten follows writing skills.lock, right before the run
	// journal is removed.
	PointLockWritten = "lock-written"
)
