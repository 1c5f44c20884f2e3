package install

import (
	"testing"
	"unsafe"
)

// An install holds a transaction per package and root until its commit
// (20,000 at 10,000 packages in two roots): it stays within the 160-byte
// size class, its staging paths derived (stagePath) and what few have
// kept aside (txnExtra).
func TestTxnStaysSmall(t *testing.T) {
	if n := unsafe.Sizeof(txn{}); n > 160 {
		t.Errorf("a txn is %d bytes, want at most 160", n)
	}
}
