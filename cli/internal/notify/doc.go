// Package notify decides whether a command may look for new releases
// before it runs, keeps what the lookups found and what the user answered
// in updates.json, and asks the user what to do about a new release
// (design §8 "Update notifications").
//
// Everything here is advisory: nothing in this package returns an error
// that may change a command's result. A corrupt or missing updates.json is
// an empty one.
package notify
